// Which files keep their apps' output: a test failed, or passed only on its retry; and the names the output gets.
import { describe, expect, it } from 'vitest';
import { anyTestFailed, keptOutputName, type TaskOutcome } from './app-output-on-failure.ts';

const test = (state: string, retryCount = 0): TaskOutcome => ({ type: 'test', result: { state, retryCount } });
const suite = (...tasks: TaskOutcome[]): TaskOutcome => ({ type: 'suite', tasks });

describe('app output on failure', () => {
  it('keeps it when a test failed, however deep its suite, or passed only on its retry', () => {
    expect(anyTestFailed(suite(test('pass'), suite(test('pass'), suite(test('fail')))))).toBe(true);
    expect(anyTestFailed(suite(test('pass'), test('pass', 1)))).toBe(true);
  });

  it('keeps nothing when every test passed at once, was skipped or the file holds none', () => {
    expect(anyTestFailed(suite(test('pass'), suite(test('skip'), test('pass'))))).toBe(false);
    expect(anyTestFailed(suite())).toBe(false);
  });

  it('names the output after the test file and the port', () => {
    expect(keptOutputName('test/browser/queues.browser.test.ts', 40123)).toBe(
      'test_browser_queues.browser.test.ts-40123.log',
    );
    expect(keptOutputName('/tmp/ci1/src/modules/feature/rr/ui/rr.browser.test.ts', 5)).toBe(
      'src_modules_feature_rr_ui_rr.browser.test.ts-5.log',
    );
  });
});
