// rhea types a link's error as its AmqpError or a plain Error; callers only need condition and text.
import type { Receiver, Sender } from 'rhea';

export interface LinkErrorDetail {
  readonly condition?: string;
  readonly description?: string;
}

export function linkErrorDetail(link: Receiver | Sender): LinkErrorDetail {
  const error: unknown = link.error;
  if (!error || typeof error !== 'object') return {};
  const { condition, description, message } = error as Record<string, unknown>;
  return {
    condition: typeof condition === 'string' ? condition : undefined,
    description: typeof description === 'string' ? description : typeof message === 'string' ? message : undefined,
  };
}
