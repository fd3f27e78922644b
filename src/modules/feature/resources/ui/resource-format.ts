// How the resource tables write numbers, bytes and absent values. Pure, so the unit test pins it.
export const count = (value: number) => value.toLocaleString('en');

export const dash = (value: string | null) => value ?? '—';

/** Memory in the unit that keeps it short: B, KiB or MiB with one decimal. */
export const bytes = (value: number) =>
  value >= 1_048_576
    ? `${(value / 1_048_576).toFixed(1)} MiB`
    : value >= 1024
      ? `${(value / 1024).toFixed(1)} KiB`
      : `${String(value)} B`;
