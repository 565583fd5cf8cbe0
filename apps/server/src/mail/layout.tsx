import type { CSSProperties } from 'react';
import {
  Body,
  Button,
  Container,
  Head,
  Hr,
  Html,
  Link,
  Section,
  Text,
} from '@react-email/components';
import { render } from '@react-email/render';
import type { Language } from '@tradebot/contract';
import type { MailMessage } from '../repositories/mail.repository';

/**
 * What an e-mail says, block by block (decision 100): each mail module builds these from its
 * i18next text, and `renderMail` writes them once as HTML (React Email, every value escaped by
 * React) and once as plain text, so the two parts never say different things.
 */
export type Block =
  /** A paragraph; a blank line in it starts another, a line break stays one. */
  | { p: string; strong?: boolean }
  /** A code to type, set large. */
  | { code: string }
  /** A link shown as a button, labelled. */
  | { button: string; href: string }
  /** A bare link, its address as its text. */
  | { link: string }
  /** Label and value rows. */
  | { table: readonly (readonly [string, string])[] }
  /** A user's message, quoted under a heading; `earlier` for the message a reply answers. */
  | { quote: string; heading: string; earlier?: boolean };

export interface MailContent {
  readonly language: Language;
  readonly to: string;
  readonly subject: string;
  readonly blocks: readonly Block[];
  /** Lines under a rule at the end: why the mail came, what its figures are, the settings. */
  readonly footer?: readonly Block[];
}

const colors = { text: '#15202b', muted: '#5b6b7b', rule: '#c8d1da', button: '#0b6e4f' };

const styles = {
  body: {
    fontFamily: 'system-ui, sans-serif',
    color: colors.text,
    lineHeight: 1.5,
    backgroundColor: '#ffffff',
  },
  container: { maxWidth: '600px', padding: '0 12px' },
  text: { fontSize: '16px', lineHeight: 1.5, margin: '16px 0' },
  code: { fontSize: '28px', fontWeight: 700, letterSpacing: '6px', margin: '16px 0' },
  button: {
    display: 'inline-block',
    padding: '10px 18px',
    background: colors.button,
    color: '#ffffff',
    borderRadius: '6px',
    textDecoration: 'none',
    fontWeight: 600,
  },
  label: { padding: '4px 12px 4px 0', textAlign: 'left' },
  quote: { borderLeft: `3px solid ${colors.rule}`, margin: 0, paddingLeft: '12px' },
  rule: { borderColor: colors.rule, margin: '24px 0 8px' },
  footer: { color: colors.muted },
} satisfies Record<string, CSSProperties>;

const blankLine = /\r?\n\s*\r?\n/;

/** Text as paragraphs: a blank line starts another, a line break is a `<br>`. */
function Paragraphs({ text, style }: { text: string; style?: CSSProperties }) {
  return text.split(blankLine).map((paragraph, index) => (
    <Text key={index} style={{ ...styles.text, ...style }}>
      {paragraph
        .split(/\r?\n/)
        .flatMap((line, at) => (at === 0 ? [line] : [<br key={at} />, line]))}
    </Text>
  ));
}

function MailBlock({ block }: { block: Block }) {
  if ('p' in block) {
    return <Paragraphs text={block.p} style={block.strong ? { fontWeight: 700 } : undefined} />;
  }
  if ('code' in block) return <Text style={styles.code}>{block.code}</Text>;
  if ('button' in block) {
    return (
      <Section style={{ margin: '16px 0' }}>
        <Button href={block.href} style={styles.button}>
          {block.button}
        </Button>
      </Section>
    );
  }
  if ('link' in block) {
    return (
      <Text style={styles.text}>
        <Link href={block.link}>{block.link}</Link>
      </Text>
    );
  }
  if ('table' in block) {
    return (
      <table>
        <tbody>
          {block.table.map(([label, value], index) => (
            <tr key={index}>
              <th align="left" style={styles.label}>
                {label}
              </th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  const tone = block.earlier ? { color: colors.muted } : undefined;
  return (
    <>
      <Text style={{ ...styles.text, ...tone }}>{block.heading}</Text>
      <blockquote style={{ ...styles.quote, ...tone }}>
        <Paragraphs text={block.quote} />
      </blockquote>
    </>
  );
}

/** The one layout of every e-mail: the blocks, then the footer under a rule. */
export function MailLayout({ language, blocks, footer = [] }: Omit<MailContent, 'to' | 'subject'>) {
  return (
    <Html lang={language}>
      <Head />
      <Body style={styles.body}>
        <Container style={styles.container}>
          {blocks.map((block, index) => (
            <MailBlock key={index} block={block} />
          ))}
          {footer.length > 0 ? (
            <Section style={styles.footer}>
              <Hr style={styles.rule} />
              {footer.map((block, index) => (
                <MailBlock key={index} block={block} />
              ))}
            </Section>
          ) : null}
        </Container>
      </Body>
    </Html>
  );
}

/** A block as plain text: a button's label over its address, a code indented, quotes marked. */
function blockText(block: Block): string {
  if ('p' in block) return block.p;
  if ('code' in block) return `    ${block.code}`;
  if ('button' in block) return `${block.button}:\n${block.href}`;
  if ('link' in block) return block.link;
  if ('table' in block)
    return block.table.map(([label, value]) => `  ${label}: ${value}`).join('\n');
  if (!block.earlier) return `${block.heading}\n\n${block.quote}`;
  return [block.heading, ...block.quote.split(/\r?\n/)].map((line) => `> ${line}`).join('\n');
}

/** The plain-text part: the blocks, a blank line apart. */
export function mailText(blocks: readonly Block[]): string {
  return blocks.map(blockText).join('\n\n');
}

/** An e-mail as text and HTML from one list of blocks. */
export async function renderMail(content: MailContent): Promise<MailMessage> {
  const html = await render(
    <MailLayout language={content.language} blocks={content.blocks} footer={content.footer} />,
  );
  return {
    to: content.to,
    subject: content.subject,
    text: mailText([...content.blocks, ...(content.footer ?? [])]),
    html,
  };
}
