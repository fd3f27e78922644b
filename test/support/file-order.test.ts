import { describe, expect, it } from 'vitest';
import { orderFiles, type OrderedFile } from './file-order.ts';

const file = (key: string, group = 0, needsBuild = false): OrderedFile => ({ key, group, needsBuild });
const keys = (files: readonly OrderedFile[]) => files.map((f) => f.key);

describe('the order test files start in', () => {
  it('runs each group longest first, groups one after another, files without a recorded duration first', () => {
    const files = [file('b:short', 0), file('u:x', 1), file('b:long', 0), file('b:new', 0), file('u:y', 1)];
    const ordered = orderFiles(files, {
      durations: { 'b:short': 5, 'b:long': 140, 'u:x': 1, 'u:y': 3 },
      workersOf: () => 2,
      buildSeconds: 0,
    });
    expect(keys(ordered)).toEqual(['b:new', 'b:long', 'b:short', 'u:y', 'u:x']);
  });

  it('holds a file that needs the build back until the files before it kept the workers busy for the build’s time', () => {
    const files = [file('e:smoke', 0, true), file('b:a', 0), file('b:b', 0), file('b:c', 0), file('b:d', 0)];
    const ordered = orderFiles(files, {
      // Three workers: after a (90 s) and b (60 s) they were busy 50 s; after c (60 s) 70 s, the build's time.
      durations: { 'e:smoke': 90, 'b:a': 90, 'b:b': 60, 'b:c': 60, 'b:d': 30 },
      workersOf: () => 3,
      buildSeconds: 70,
    });
    expect(keys(ordered)).toEqual(['b:a', 'b:b', 'b:c', 'e:smoke', 'b:d']);
  });

  it('puts such files last when the whole group is shorter than the build, and keeps every file', () => {
    const files = [file('e:one', 0, true), file('b:a', 0), file('e:two', 0, true)];
    const ordered = orderFiles(files, {
      durations: { 'e:one': 10, 'e:two': 20, 'b:a': 5 },
      workersOf: () => 3,
      buildSeconds: 100,
    });
    expect(keys(ordered)).toEqual(['b:a', 'e:two', 'e:one']);
  });
});
