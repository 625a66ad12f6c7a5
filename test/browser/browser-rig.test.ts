import { describe, expect, it } from 'vitest';
import { launchBrowser } from './browser-rig.ts';

describe('browser rig', () => {
  it('fails, naming the fix, when there is no Chromium (the browser tests never skip)', async () => {
    await expect(launchBrowser('/nonexistent/chromium')).rejects.toThrow(
      /^No Chromium at \/nonexistent\/chromium: install it \(apt-get install -y chromium fonts-liberation\) or set CHROMIUM_PATH/,
    );
  });
});
