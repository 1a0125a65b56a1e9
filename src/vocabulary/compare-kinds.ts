/** The groups of a compare's result and the exports of its difference (SPEC §13), named once for every side. */

/** In the order the screen shows them: the differences first, the lines that agree last. */
export const COMPARE_GROUPS = ['onlyLeft', 'onlyRight', 'quantityDiffers', 'priceDiffers', 'unplaced', 'same'] as const;
export type CompareGroup = (typeof COMPARE_GROUPS)[number];

/**
 * `csv`: the difference; `wanted`: the shortfall as a BrickLink wanted list; `upload`: the extra as a mass
 * upload; `rebrickable`: the shortfall as a Rebrickable part list.
 */
export const COMPARE_EXPORTS = ['csv', 'wanted', 'upload', 'rebrickable'] as const;
export type CompareExport = (typeof COMPARE_EXPORTS)[number];
