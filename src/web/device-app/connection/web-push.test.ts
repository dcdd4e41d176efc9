import { describe, expect, it } from 'vitest';
import { applicationServerKey, type BrowserFacts, pushSupport } from './web-push.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const IPAD_AS_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

const facts = (overrides: Partial<BrowserFacts>): BrowserFacts => ({
  userAgent: ANDROID,
  maxTouchPoints: 5,
  hasServiceWorker: true,
  hasPushManager: true,
  hasNotification: true,
  standalone: false,
  ...overrides,
});

describe('pushSupport', () => {
  it('offers the switch where service workers, PushManager and notifications all exist', () => {
    expect(pushSupport(facts({}))).toBe('supported');
    // A Home Screen web app on iOS 16.4+ has them all.
    expect(pushSupport(facts({ userAgent: IPHONE, standalone: true }))).toBe('supported');
  });

  it('explains Add to Home Screen on an iPhone or iPad browser tab (no PushManager, not standalone)', () => {
    const tab = { hasPushManager: false, hasNotification: false };
    expect(pushSupport(facts({ userAgent: IPHONE, ...tab }))).toBe('home-screen-needed');
    expect(pushSupport(facts({ userAgent: IPAD_AS_MAC, maxTouchPoints: 5, ...tab }))).toBe('home-screen-needed');
    // A Mac (no touch screen) without push is simply unsupported, and so is an old installed iPhone web app.
    expect(pushSupport(facts({ userAgent: IPAD_AS_MAC, maxTouchPoints: 0, ...tab }))).toBe('unsupported');
    expect(pushSupport(facts({ userAgent: IPHONE, standalone: true, ...tab }))).toBe('unsupported');
  });
});

describe('applicationServerKey', () => {
  it('decodes the base64url VAPID key to its 65 bytes', () => {
    const key = applicationServerKey(
      'BNbxGYNMhEIi9zrneh7mqV4EuSmfG_4dFhk6ziThEQ5rsgQ4KRk2u6nvBRtbsmyEGamtGhKq6dI5fmyyuNv9mmY',
    );
    expect(key).toHaveLength(65);
    expect(key[0]).toBe(0x04);
  });
});
