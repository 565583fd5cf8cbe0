import { Tabs as RadixTabs } from 'radix-ui';
import type { ReactNode } from 'react';
import styles from './tabs.module.css';

export interface TabItem<Value extends string> {
  value: Value;
  label: string;
  content: ReactNode;
}

export interface TabsProps<Value extends string> {
  /** Names the list of tabs for assistive technology. */
  label: string;
  value: Value;
  onValueChange: (value: Value) => void;
  items: readonly TabItem<Value>[];
}

/**
 * Views of one screen, one at a time (Radix Tabs): arrow keys move between the tabs, and only
 * the chosen view is in the document. The tab list stays at the top of the screen while its
 * view scrolls, so another view is one tap away.
 */
export function Tabs<Value extends string>({
  label,
  value,
  onValueChange,
  items,
}: TabsProps<Value>) {
  return (
    <RadixTabs.Root
      className={styles.root}
      value={value}
      onValueChange={(next) => {
        const item = items.find((candidate) => candidate.value === next);
        if (item) onValueChange(item.value);
      }}
    >
      <RadixTabs.List className={styles.list} aria-label={label}>
        {items.map((item) => (
          <RadixTabs.Trigger key={item.value} value={item.value} className={styles.tab}>
            {item.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {items.map((item) => (
        <RadixTabs.Content key={item.value} value={item.value} className={styles.panel}>
          {item.content}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
