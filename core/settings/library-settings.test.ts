import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.ts';
import { readLibrarySettings } from './library-settings.ts';

describe('library settings', () => {
  it('API_MAX_BATCH_LIMIT: 500 when unset or blank, else an integer 1–10000', () => {
    expect(readLibrarySettings({})).toEqual({ maxBatchLimit: 500 });
    expect(readLibrarySettings({ API_MAX_BATCH_LIMIT: '  ' })).toEqual({ maxBatchLimit: 500 });
    expect(readLibrarySettings({ API_MAX_BATCH_LIMIT: '25' })).toEqual({ maxBatchLimit: 25 });
    for (const bad of ['0', '10001', 'many', '-3', '2.5']) {
      expect(() => readLibrarySettings({ API_MAX_BATCH_LIMIT: bad })).toThrow(ConfigError);
      expect(() => readLibrarySettings({ API_MAX_BATCH_LIMIT: bad })).toThrow(/API_MAX_BATCH_LIMIT/);
    }
  });
});
