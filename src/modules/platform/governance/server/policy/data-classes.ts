// The fixed data classes every detection and rule classifies a value into, and what the policy does with each by
// default. Credentials are dropped for everyone, whatever the policy says; the others are masked (cards and bank
// accounts keep their last four characters) unless the caller may see them in clear.

export const DATA_CLASSES = [
  'credential',
  'payment-card',
  'bank-account',
  'personal-contact',
  'other-sensitive',
] as const;
export type DataClass = (typeof DATA_CLASSES)[number];

/** drop: the value is removed; mask: replaced by its class; partial: all but the last four characters hidden. */
export const ACTIONS = ['drop', 'mask', 'partial'] as const;
export type Action = (typeof ACTIONS)[number];

export const DEFAULT_ACTIONS: Readonly<Record<DataClass, Action>> = {
  credential: 'drop',
  'payment-card': 'partial',
  'bank-account': 'partial',
  'personal-contact': 'mask',
  'other-sensitive': 'mask',
};

export const CLASS_LABELS: Readonly<Record<DataClass, string>> = {
  credential: 'credential',
  'payment-card': 'payment card',
  'bank-account': 'bank account',
  'personal-contact': 'personal contact',
  'other-sensitive': 'sensitive',
};
