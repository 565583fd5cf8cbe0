import styles from './asset-badge.module.css';

/** The design system's tag colours (tokens.css: --color-tag-0 to -7). */
const tagColours = 8;

/** A stable tag colour per code, so EUR looks the same wherever it appears. */
function tagOf(code: string): number {
  let hash = 0;
  for (const character of code) hash = (hash * 31 + character.charCodeAt(0)) % 9973;
  return hash % tagColours;
}

/**
 * The asset's two codes (Icon1: the asset, Icon2: its quote currency) as a compact two-part
 * badge; decorative, since the asset's name is written next to it.
 */
export function AssetBadge({ base, quote }: { base: string; quote: string }) {
  return (
    <span className={styles.pair} aria-hidden="true">
      {[base, quote].map((code, index) => (
        <span key={index} className={styles.code} data-tag={index === 0 ? tagOf(code) : undefined}>
          {code.slice(0, 4).toUpperCase()}
        </span>
      ))}
    </span>
  );
}
