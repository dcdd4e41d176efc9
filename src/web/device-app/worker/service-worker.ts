import { type DeviceWorkerScope, installDeviceWorker } from './device-worker.ts';

// In a service worker `self` is its global scope; the DOM's types, the project's, call it a Window.
installDeviceWorker(self as unknown as DeviceWorkerScope);
