'use client';
// The row menu of a table whose rows are of a kind with a `<kind>.actions` slot: items of enabled modules that offer
// themselves on the row, grouped by their section in the fixed order Open, Copy, Operate, Destroy. Operate and Destroy
// are writes: on a cluster whose writes are off they stay listed, disabled, under the reason.
import { ActionIcon, Menu, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { useRouter } from 'next/navigation';
import { Fragment, useEffect, useState } from 'react';
import type { RowMenuContribution, RowTarget } from '../slots/contribution-types.ts';
import { ROW_MENU_SECTIONS, type RowMenuSection } from '../slots/slot-ids.ts';

const WRITE_SECTIONS: ReadonlySet<RowMenuSection> = new Set(['Operate', 'Destroy']);

/** The items offered on the row grouped by section, sections in the fixed order, empty ones left out. */
export function rowMenuSections(items: readonly RowMenuContribution[], target: RowTarget) {
  const offered = items.filter((item) => item.visible?.(target) ?? true);
  return ROW_MENU_SECTIONS.map((section) => ({
    section,
    items: offered.filter((item) => item.section === section),
  })).filter((group) => group.items.length > 0);
}

/** How long an action's confirmation stays beside the menu button. */
const FEEDBACK_MS = 2_000;

export function RowMenu({
  items,
  target,
  writesOff,
}: {
  items: readonly RowMenuContribution[];
  target: RowTarget;
  writesOff?: string | undefined;
}) {
  const router = useRouter();
  const sections = rowMenuSections(items, target);
  const [feedback, setFeedback] = useState<string | undefined>();
  useEffect(() => {
    if (!feedback) return;
    const timer = setTimeout(() => setFeedback(undefined), FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [feedback]);
  const run = async (item: RowMenuContribution) => {
    try {
      const answer = await item.run?.(target);
      if (answer) setFeedback(answer);
    } catch (error) {
      setFeedback(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Tooltip label={feedback} opened={feedback !== undefined} position="left" withArrow>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${target.key}`}>
            <IconDots size={16} />
          </ActionIcon>
        </Menu.Target>
      </Tooltip>
      {/* Read out too: a tooltip alone is not announced. */}
      <VisuallyHidden role="status" aria-live="polite">
        {feedback ?? ''}
      </VisuallyHidden>
      <Menu.Dropdown>
        {sections.map((group, index) => (
          <Fragment key={group.section}>
            {index > 0 && <Menu.Divider />}
            <Menu.Label>{group.section}</Menu.Label>
            {writesOff && WRITE_SECTIONS.has(group.section) && (
              <Text size="xs" c="red" px="sm" pb={4} maw={280} data-testid="row-menu-writes-off">
                {writesOff}
              </Text>
            )}
            {group.items.map((item) => (
              <Menu.Item
                key={item.id}
                disabled={writesOff !== undefined && WRITE_SECTIONS.has(group.section)}
                color={group.section === 'Destroy' ? 'red' : undefined}
                onClick={() => {
                  if (item.href) router.push(item.href(target));
                  else void run(item);
                }}
              >
                {item.label}
              </Menu.Item>
            ))}
          </Fragment>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
