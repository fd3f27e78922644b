'use client';
// The resources module's writes, each a broker command through the one dialog (dry run per node, confirmation,
// outcome, audit): create an address on every logical node, delete one (with force, its queues and their messages
// too), and close a client connection on the node that issued it. Each sits behind a button gated by the cluster's
// capability ledger (writes unavailable: disabled with the reason; not confirmed yet: enabled, marked). A row menu
// opens the address or connection page with `?operate=` and the page opens the dialog. The dialogs are files of
// their own beside this one.
import { IconPlugConnectedX, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useCapabilityGate } from '@/modules/platform/clusters/ui.ts';
import { CloseConnectionDialog } from './close-connection-dialog.tsx';
import { CreateAddressDialog } from './create-address-dialog.tsx';
import { DeleteAddressDialog } from './delete-address-dialog.tsx';
import { GatedButton } from './gated-button.tsx';
import { useOperateParam } from './use-operate-param.ts';

/** The Addresses screen's "Create address". */
export function CreateAddressButton({ clusterId }: { clusterId: string }) {
  const gate = useCapabilityGate(clusterId);
  const [open, setOpen] = useState(false);
  return (
    <>
      <GatedButton gate={gate} icon={<IconPlus size={14} />} onClick={() => setOpen(true)}>
        Create address
      </GatedButton>
      {open && !gate.disabled && (
        <CreateAddressDialog clusterId={clusterId} gate={gate} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

/** The address page's "Delete address", opened by the button or by `?operate=delete` (the row menu's link). */
export function DeleteAddressButton({ clusterId, address }: { clusterId: string; address: string }) {
  const gate = useCapabilityGate(clusterId);
  const [operate, setOperate] = useOperateParam();
  return (
    <>
      <GatedButton gate={gate} icon={<IconTrash size={14} />} colour="red" onClick={() => setOperate('delete')}>
        Delete address
      </GatedButton>
      {operate === 'delete' && !gate.disabled && (
        <DeleteAddressDialog
          clusterId={clusterId}
          address={address}
          gate={gate}
          onClose={() => setOperate(undefined)}
        />
      )}
    </>
  );
}

/** The connection page's "Close connection", opened by the button or by `?operate=close` (the row menu's link). */
export function CloseConnectionButton({
  clusterId,
  connectionId,
  nodeId,
  nodeName,
}: {
  clusterId: string;
  connectionId: string;
  nodeId: string | undefined;
  nodeName: string | undefined;
}) {
  const gate = useCapabilityGate(clusterId);
  const [operate, setOperate] = useOperateParam();
  return (
    <>
      <GatedButton gate={gate} icon={<IconPlugConnectedX size={14} />} colour="red" onClick={() => setOperate('close')}>
        Close connection
      </GatedButton>
      {operate === 'close' && !gate.disabled && nodeId && (
        <CloseConnectionDialog
          clusterId={clusterId}
          connectionId={connectionId}
          nodeId={nodeId}
          nodeName={nodeName ?? nodeId}
          gate={gate}
          onClose={() => setOperate(undefined)}
        />
      )}
    </>
  );
}
