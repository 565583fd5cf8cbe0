import fs from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** Each sample's value in a Prometheus text answer, by its name and labels (`name{labels}`). */
export function samples(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}

/**
 * The series names a Prometheus text answer declares (`# TYPE`), with a histogram's and a
 * summary's derived series: a labelled counter nothing has counted yet has no sample, but a
 * query naming it is still right.
 */
export function seriesNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name = '', kind] = match;
    names.add(name);
    if (kind === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    if (kind === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
  }
  return names;
}

/** Every `tradebot_…` series the Grafana dashboard (docs/ops/grafana-dashboard.json) queries. */
export async function dashboardSeries(): Promise<string[]> {
  const file = path.join(root, 'docs/ops/grafana-dashboard.json');
  const expressions: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'expr' && typeof inner === 'string') expressions.push(inner);
        else walk(inner);
      }
    }
  };
  walk(JSON.parse(await fs.readFile(file, 'utf8')));
  return [...new Set(expressions.flatMap((expr) => expr.match(/\btradebot_\w+/g) ?? []))].sort();
}
