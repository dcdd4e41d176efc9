import { REQUEST_FIELD_MAX } from '../../../shared/contract/index.ts';

/** What a device says about itself when it enrols (the fields of an authorization request). */
export interface DeviceDescription {
  DeviceType: string;
  Manufacturer: string;
  Model: string;
  OsVersion: string;
}

/** User-Agent Client Hints (Chromium browsers); absent from Safari and Firefox. */
interface UserAgentData {
  mobile: boolean;
  platform: string;
  getHighEntropyValues(hints: string[]): Promise<{ model?: string; platformVersion?: string; platform?: string }>;
}

export type UserAgentParser = typeof import('ua-parser-js');
let parser: Promise<UserAgentParser> | undefined;

/** ua-parser-js (~7 KB gzip) loads only when a User-Agent has to be read: the register screen and the inbox. */
export function loadUserAgentParser(): Promise<UserAgentParser> {
  parser ??= import('ua-parser-js').then((module) => module.default);
  return parser;
}

/** The OS names the seed's requests use ("iOS", "Android"), from the names browsers and ua-parser-js give. */
function deviceType(os: string | undefined): string {
  if (!os) return '';
  if (/^(ios|iphone|ipados)/i.test(os)) return 'iOS';
  if (/mac ?os/i.test(os)) return 'macOS';
  if (/chrom(e|ium) ?os/i.test(os)) return 'ChromeOS';
  return os;
}

function manufacturerOf(type: string, model: string): string {
  if (type === 'iOS' || type === 'macOS') return 'Apple';
  if (/^pixel/i.test(model)) return 'Google';
  if (/^(SM-|galaxy)/i.test(model)) return 'Samsung';
  return '';
}

const cut = (value: string | undefined, max: number) => (value ?? '').trim().slice(0, max);

/** Each field cut to what the service takes, so an odd User-Agent never makes the form unsendable. */
function fitted(description: DeviceDescription): DeviceDescription {
  return {
    DeviceType: cut(description.DeviceType, REQUEST_FIELD_MAX.DeviceType),
    Manufacturer: cut(description.Manufacturer, REQUEST_FIELD_MAX.Manufacturer),
    Model: cut(description.Model, REQUEST_FIELD_MAX.Model),
    OsVersion: cut(description.OsVersion, REQUEST_FIELD_MAX.OsVersion),
  };
}

/**
 * This device as the browser can tell: User-Agent Client Hints where offered (a real model name and OS version,
 * which the reduced User-Agent string no longer carries), ua-parser-js otherwise. Every field may come out empty;
 * the person can correct them before registering.
 */
export async function describeThisDevice(
  browser: Pick<Navigator, 'userAgent' | 'maxTouchPoints'> & { userAgentData?: UserAgentData } = navigator,
): Promise<DeviceDescription> {
  const UAParser = await loadUserAgentParser();
  const parsed = new UAParser(browser.userAgent).getResult();
  let type = deviceType(parsed.os.name);
  let model = parsed.device.model ?? '';
  let osVersion = parsed.os.version ?? '';
  let manufacturer = parsed.device.vendor ?? '';
  // iPadOS asks for desktop pages: it says "Macintosh", but a Mac has no touch screen.
  if (type === 'macOS' && browser.maxTouchPoints > 1) {
    type = 'iOS';
    model = 'iPad';
  }
  if (browser.userAgentData) {
    try {
      const hints = await browser.userAgentData.getHighEntropyValues(['model', 'platformVersion']);
      type = deviceType(hints.platform ?? browser.userAgentData.platform) || type;
      if (hints.model) model = hints.model;
      if (hints.platformVersion) osVersion = hints.platformVersion;
    } catch {
      // A browser may refuse high-entropy hints; the User-Agent string's answer stands.
    }
  }
  // The Model "K" of reduced Android User-Agents says nothing.
  if (model === 'K') model = '';
  if (!manufacturer) manufacturer = manufacturerOf(type, model);
  // Apple writes its versions with underscores in places (`iPhone OS 17_0`); people and the queue read 17.0.
  osVersion = osVersion.replace(/_/g, '.');
  return fitted({ DeviceType: type, Manufacturer: manufacturer, Model: model, OsVersion: osVersion });
}

/** "Firefox 128 on Windows 10" from a User-Agent string, or the string itself when nothing in it is known. */
export function readableUserAgent(UAParser: UserAgentParser, userAgent: string): string {
  const { browser, os } = new UAParser(userAgent).getResult();
  const major = browser.version?.split('.')[0];
  const browserText = browser.name ? [browser.name, major].filter(Boolean).join(' ') : '';
  const osText = os.name ? [os.name, os.version].filter(Boolean).join(' ') : '';
  if (!browserText && !osText) return userAgent;
  if (!osText) return browserText;
  return browserText ? `${browserText} on ${osText}` : osText;
}
