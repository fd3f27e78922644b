import { CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { fleetCompletions } from './sql-completions.ts';

const NAMES = { addresses: ['orders', 'orders.eu', 'billing'], propertyKeys: ['orderId', 'order-id'] };
const complete = fleetCompletions(() => NAMES);

/** The completion at the end of `text` (or at `|`), as the editor would ask for it. */
function at(text: string, explicit = false): CompletionResult | null {
  const position = text.includes('|') ? text.indexOf('|') : text.length;
  const state = EditorState.create({ doc: text.replace('|', '') });
  return complete(new CompletionContext(state, position, explicit)) as CompletionResult | null;
}

const labels = (result: CompletionResult | null) => result?.options.map((option) => option.label);

describe('the SQL editor completion', () => {
  it('offers the addresses after FROM, quoted when they are no plain word, replacing what is typed', () => {
    const result = at('SELECT * FROM ord');
    expect(labels(result)).toEqual(['orders', '"orders.eu"', 'billing']);
    expect(result?.from).toBe('SELECT * FROM '.length);
    expect(at('select * from "orders.')?.from).toBe('select * from '.length);
  });

  it("offers property keys after properties. and inside properties['", () => {
    const dotted = at('SELECT * FROM orders WHERE properties.ord');
    expect(labels(dotted)).toEqual(['.orderId', "['order-id']"]);
    expect(dotted?.from).toBe('SELECT * FROM orders WHERE properties'.length);
    const bracket = at("SELECT * FROM orders WHERE properties['or|']");
    expect(labels(bracket)).toEqual(['orderId', 'order-id']);
    expect(bracket?.from).toBe("SELECT * FROM orders WHERE properties['".length);
  });

  it('offers headers and property columns for a word elsewhere, and nothing unasked on an empty spot', () => {
    const result = at('SELECT ti');
    expect(labels(result)).toContain('time');
    expect(labels(result)).toContain('properties.orderId');
    expect(labels(result)).toContain("properties['order-id']");
    expect(at('SELECT ')).toBeNull();
    expect(labels(at('SELECT ', true))).toContain('node');
  });
});
