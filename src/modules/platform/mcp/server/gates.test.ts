import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { passGates } from './gates.ts';

const queue = { kind: 'queue', name: 'orders', destructive: true };

function refusal(run: () => unknown): McpError {
  try {
    run();
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the two gates', () => {
  it('previews by default, whatever else is given', () => {
    expect(passGates({}, queue)).toEqual({ dryRun: true, override: false });
    expect(passGates({ override: true, confirm: 'nope' }, queue)).toEqual({ dryRun: true, override: true });
  });

  it('runs for real only with the subject’s exact name as confirm', () => {
    expect(passGates({ dryRun: false, confirm: 'orders' }, queue)).toEqual({ dryRun: false, override: false });
    for (const confirm of [undefined, 'Orders', 'orders ', 'yes']) {
      const error = refusal(() => passGates({ dryRun: false, confirm }, queue));
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.message).toContain('confirm equal to the queue\'s exact name ("orders")');
    }
  });

  it('never takes override for confirm', () => {
    const error = refusal(() => passGates({ dryRun: false, override: true }, queue));
    expect(error.message).toContain('does not replace it');
  });

  it('needs no confirm for an operation that destroys nothing', () => {
    expect(passGates({ dryRun: false }, { ...queue, destructive: false })).toEqual({ dryRun: false, override: false });
  });
});
