'use client';
// Send one message: the address (the queue's, prefilled) and routing type, the body as text, JSON or bytes (base64),
// typed application properties (int stays apart from long), durability, priority and time to live. "Preview" is a
// dry run (validated and audited, nothing sent) showing the node it would go through and the message as the content
// policy echoes it; "Send" sends exactly what was previewed, and shows the echo and the audit row.
// The fields are in send-form-fields.tsx and send-property-rows.tsx, the request in send-request.ts, the state in
// use-send-message.ts.
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { SendAnswerView } from './send-answer.tsx';
import { AddressFields, BodyFields, HeaderFields } from './send-form-fields.tsx';
import { PropertyRows } from './send-property-rows.tsx';
import type { RoutingType } from './send-request.ts';
import { useSendMessage } from './use-send-message.ts';

export function SendMessageDialog({
  clusterId,
  address: initialAddress,
  routingType: initialRouting,
  onClose,
}: {
  clusterId: string;
  address: string;
  routingType: RoutingType;
  onClose: () => void;
}) {
  const sending = useSendMessage(clusterId, initialAddress, initialRouting);
  const { form, update, input, problem, bodyError, preview, send, current, previewFailed, sent } = sending;
  const address = form.address.trim();

  if (sent)
    return (
      <Modal opened onClose={onClose} title="Send a message" size="xl">
        <Stack gap="md">
          <SendAnswerView answer={sent} address={address} />
          <Group justify="flex-end">
            <Button variant="default" onClick={sending.sendAnother}>
              Send another
            </Button>
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      </Modal>
    );

  return (
    <Modal opened onClose={onClose} title="Send a message" size="xl" data-testid="send-dialog">
      <Stack gap="md">
        <AddressFields form={form} update={update} />
        <BodyFields form={form} update={update} error={bodyError} />
        <PropertyRows rows={form.properties} onChange={(rows) => update('properties', rows)} />
        <HeaderFields form={form} update={update} />
        {problem && !(form.bodyText === '' && bodyError !== undefined) && (
          <Text size="sm" c="red">
            {problem}
          </Text>
        )}
        {preview.isError && <ProblemView error={preview.error} />}
        {send.isError && <ProblemView error={send.error} />}
        {current && <SendAnswerView answer={current} address={address} />}
        <Group justify="flex-end">
          <Button
            variant={current ? 'default' : 'filled'}
            disabled={!input}
            loading={preview.isPending}
            onClick={sending.runPreview}
          >
            {current ? 'Preview again' : 'Preview'}
          </Button>
          <Button disabled={!current || previewFailed || !input} loading={send.isPending} onClick={sending.runSend}>
            Send
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
