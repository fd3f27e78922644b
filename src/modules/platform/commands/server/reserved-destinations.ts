// A broker command that sends messages somewhere the user named (a send's address, a move's target queue and its
// address, a retry's original address) must not reach the broker's own management or notification address, nor an
// internal one: a message there is a management request or a forged broker event (docs/messages.md). Nor may one
// create, delete or change the broker's own plumbing there: a queue created on the notification address reads every
// broker event (usernames included); one deleted, purged or paused blinds the cluster bridges and Flotilla's events. The addresses
// each node is configured with come from its last poll (clusters' `reservedAddressesOf`); a node never polled adds
// nothing, and the broker defaults are refused whatever the nodes say, so an unread configuration still refuses the
// usual names.
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { reservedAddressReason } from '@/modules/platform/broker/index.ts';

/** Throws 400 `destination-reserved` for the first name that reaches a reserved address on any node of the cluster. */
export function refuseReservedDestinations(reserved: readonly string[], names: readonly string[]): void {
  for (const name of names) {
    const reason = reservedAddressReason(name, reserved);
    if (reason)
      throw new ProblemError({
        type: 'destination-reserved',
        title: 'Reserved destination',
        status: 400,
        detail: `${reason}: Flotilla sends, moves and retries no message to the broker's management, notification or internal addresses, and creates, deletes or changes no address or queue there. Nothing was done.`,
        destination: name,
      });
  }
}
