import { DEVICE_APP_PATH } from '../../../shared/contract/index.ts';

/**
 * The device app's service worker (worker/, built by vite.device.config.ts): at the site root, its scope narrowed to
 * the device app.
 */
export const DEVICE_SERVICE_WORKER_URL = '/device-sw.js';

/**
 * Whether this browser can be sent notifications:
 * - `supported`: it has service workers, PushManager and notifications;
 * - `home-screen-needed`: an iPhone or iPad browser tab, which gets Web Push only as a Home Screen web app (iOS 16.4+);
 * - `unsupported`: anything else without them.
 */
export type PushSupport = 'supported' | 'home-screen-needed' | 'unsupported';

export interface BrowserFacts {
  userAgent: string;
  maxTouchPoints: number;
  hasServiceWorker: boolean;
  hasPushManager: boolean;
  hasNotification: boolean;
  standalone: boolean;
}

export function browserFacts(): BrowserFacts {
  return {
    userAgent: navigator.userAgent,
    maxTouchPoints: navigator.maxTouchPoints,
    hasServiceWorker: 'serviceWorker' in navigator,
    hasPushManager: 'PushManager' in window,
    hasNotification: 'Notification' in window,
    standalone:
      window.matchMedia('(display-mode: standalone)').matches ||
      (navigator as Navigator & { standalone?: boolean }).standalone === true,
  };
}

/** iPhone, iPod, or an iPad (which asks for desktop pages as a "Macintosh" with a touch screen). */
export function isAppleMobile(facts: Pick<BrowserFacts, 'userAgent' | 'maxTouchPoints'>): boolean {
  return /iPhone|iPad|iPod/.test(facts.userAgent) || (/Macintosh/.test(facts.userAgent) && facts.maxTouchPoints > 1);
}

export function pushSupport(facts: BrowserFacts = browserFacts()): PushSupport {
  if (facts.hasServiceWorker && facts.hasPushManager && facts.hasNotification) return 'supported';
  if (isAppleMobile(facts) && !facts.standalone) return 'home-screen-needed';
  return 'unsupported';
}

/** Registers the service worker (on every open: the browser fetches it again only when it changed). */
export function registerDeviceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return Promise.resolve(null);
  return navigator.serviceWorker.register(DEVICE_SERVICE_WORKER_URL, { scope: DEVICE_APP_PATH }).catch((error) => {
    console.warn('The device app service worker did not register', error);
    return null;
  });
}

/** The browser's current push subscription for the device app, or null. */
export async function currentPushSubscription(): Promise<PushSubscription | null> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return null;
  const registration = await navigator.serviceWorker.getRegistration(DEVICE_APP_PATH);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** A VAPID key as PushManager takes it: the bytes of its base64url text. */
export function applicationServerKey(base64Url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64Url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64Url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

export type PermissionOutcome = NotificationPermission;

/**
 * Asks for permission and subscribes. Must be called straight from the person's tap: browsers refuse a permission
 * prompt (Safari: the subscription too) that no gesture started, so nothing is awaited before the prompt. A
 * subscription made with another key (the service's key changed) is replaced.
 */
export async function subscribeToPush(
  publicKey: string,
): Promise<{ permission: PermissionOutcome; subscription: PushSubscriptionJSON | null }> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return { permission, subscription: null };
  const registration =
    (await navigator.serviceWorker.getRegistration(DEVICE_APP_PATH)) ?? (await navigator.serviceWorker.ready);
  const key = applicationServerKey(publicKey);
  const options = { userVisibleOnly: true, applicationServerKey: key };
  let subscription: PushSubscription;
  try {
    subscription = await registration.pushManager.subscribe(options);
  } catch (error) {
    // InvalidStateError: a subscription with a different key exists; drop it and subscribe again.
    const existing = await registration.pushManager.getSubscription();
    if (!existing) throw error;
    await existing.unsubscribe();
    subscription = await registration.pushManager.subscribe(options);
  }
  return { permission, subscription: subscription.toJSON() };
}

/** Drops this browser's subscription (the service is told separately). */
export async function unsubscribeFromPush(): Promise<void> {
  const subscription = await currentPushSubscription();
  await subscription?.unsubscribe();
}
