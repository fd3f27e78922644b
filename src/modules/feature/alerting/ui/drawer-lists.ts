// How the alert drawer's two lists search, sort and poll, pure so the unit test pins it. The deliverer's attempts
// change no alert and send no signal, so the delivery log rereads on its own while one is still pending.
const POLL_WHILE_PENDING_MS = 5_000;

interface DeliveryFields {
  readonly channelId: string;
  readonly event: string;
  readonly status: string;
  readonly response: string | null;
  readonly at: string;
}

interface TransitionFields {
  readonly seq: string;
  readonly transition: string;
  readonly state: string;
  readonly actor: string;
}

/** The stream's poll when it is down, else every 5 s while a delivery is pending, else none. */
export function deliveryRefetchInterval(
  liveInterval: number | false,
  rows: readonly { readonly status: string }[] | undefined,
): number | false {
  return liveInterval || (rows?.some((row) => row.status === 'pending') ? POLL_WHILE_PENDING_MS : false);
}

export function deliverySearch(channelName: (id: string) => string) {
  return {
    text: (row: DeliveryFields) => [channelName(row.channelId), row.event, row.status, row.response ?? ''].join(' '),
    sortValue: (row: DeliveryFields, field: string) =>
      field === 'channel'
        ? channelName(row.channelId)
        : field === 'event'
          ? row.event
          : field === 'status'
            ? row.status
            : row.at,
  };
}

export const transitionSearch = {
  text: (row: TransitionFields) => [row.transition, row.state, row.actor].join(' '),
  sortValue: (row: TransitionFields, field: string) =>
    field === 'transition'
      ? row.transition
      : field === 'actor'
        ? row.actor
        : // seq is a bigint as text: pad it so text order is number order.
          row.seq.padStart(20, '0'),
};
