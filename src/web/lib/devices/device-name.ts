/** The fields a device is named by: a push user, a person's device, an authorization request. */
export interface NamedDevice {
  DeviceType: string;
  Manufacturer?: string | null | undefined;
  Model?: string | null | undefined;
  OsVersion?: string | null | undefined;
}

/** "Apple iPhone 16", or the platform alone when the device did not say. */
export function deviceName(device: NamedDevice): string {
  const named = [device.Manufacturer, device.Model].filter(Boolean).join(' ');
  return named || device.DeviceType;
}

/** "iOS 18.1": the platform and its version, as far as the device said. */
export function devicePlatform(device: NamedDevice): string {
  return [device.DeviceType, device.OsVersion].filter(Boolean).join(' ');
}
