/** spec §9: the five market categories, spelled as the contract spells them. */
export const categories = ['forex', 'cripto', 'stocks', 'index', 'commodities'] as const;
export type Category = (typeof categories)[number];
