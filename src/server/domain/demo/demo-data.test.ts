import { describe, expect, it } from 'vitest';
import { statusName } from '../../../shared/contract/index.ts';
import { ADMIN, demoCreateRequest, useTestApp } from '../../test/harness.ts';
import { completeDemoDevice, completeDemoPerson, DEMO_DEVICES, DEMO_PEOPLE } from './demo-people.ts';

const first = <T>(items: readonly T[]): T => items[0] as T;
const last = <T>(items: readonly T[]): T => items[items.length - 1] as T;

/** A device the demo shows makes sense: a known model keeps its own maker and platform. */
function expectConsistentDevice(device: { DeviceType: string; Manufacturer: string; Model: string }) {
  const known = DEMO_DEVICES.find((candidate) => candidate.Model === device.Model);
  if (known) {
    expect(device, `${device.Manufacturer} ${device.Model}`).toMatchObject({
      Manufacturer: known.Manufacturer,
      DeviceType: known.DeviceType,
    });
  }
  expect(device.Manufacturer === 'Apple', `${device.Manufacturer} on ${device.DeviceType}`).toBe(
    device.DeviceType === 'iOS',
  );
}

/** An e-mail address made from the user name: "ACME\jo.mensah" is jo.mensah@acme.example. */
function expectSamePerson(userName: string, email: string) {
  const [realm = '', local = ''] = userName.split('\\');
  expect(email).toBe(`${local.toLowerCase()}@${realm.toLowerCase()}.example`);
}

describe('demo data', () => {
  const { t, tokens } = useTestApp({ signIn: { admin: ADMIN } });

  it('seeds people whose e-mail is their own and devices whose maker makes their model', async () => {
    const requests = await t.database.db.selectFrom('authorization_requests').selectAll().execute();
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      expectSamePerson(request.user_name, request.user_email);
      expectConsistentDevice({
        DeviceType: request.device_type,
        Manufacturer: request.manufacturer,
        Model: request.model,
      });
    }
  });

  it('seeds every push user with its make and model and a history that ends at its Last modified', async () => {
    const db = t.database.db;
    const users = await db.selectFrom('push_message_users').selectAll().orderBy('id').execute();
    const history = await db
      .selectFrom('history')
      .selectAll()
      .where('entity', '=', 'PushMessageUser')
      .orderBy('id')
      .execute();
    const requests = await db.selectFrom('authorization_requests').selectAll().execute();
    expect(users.length).toBeGreaterThan(5);
    for (const user of users) {
      const label = `push user #${user.id} ${user.user_name}`;
      expect(user.manufacturer, label).toBeTruthy();
      expect(user.model, label).toBeTruthy();
      expect(user.os_version, label).toBeTruthy();
      expectConsistentDevice({
        DeviceType: user.device_type,
        Manufacturer: user.manufacturer ?? '',
        Model: user.model ?? '',
      });
      expect(user.modified_at >= user.created_at, label).toBe(true);

      const entries = history.filter((entry) => entry.entity_id === user.id);
      expect(entries.length, label).toBeGreaterThan(0);
      expect(first(entries), label).toMatchObject({ action: 'Registered', changed_at: user.created_at });
      expect(last(entries), label).toMatchObject({ to_state: statusName(user.status), changed_at: user.modified_at });

      // A device an approved request registered: its person's device, registered after the approval.
      const request = requests.find(
        (candidate) => candidate.user_name === user.user_name && candidate.status === 'Authorized',
      );
      if (request) {
        expect([user.device_type, user.manufacturer, user.model], label).toEqual([
          request.device_type,
          request.manufacturer,
          request.model,
        ]);
        expect(user.created_at > (request.decided_at ?? ''), label).toBe(true);
      }
    }
  });

  it('the demo console completes what it is not told in agreement with what it is told', async () => {
    const apple = await demoCreateRequest(t, tokens.admin, { Manufacturer: 'Apple' });
    expect(apple.DeviceType).toBe('iOS');
    expectConsistentDevice(apple);
    const pixel = await demoCreateRequest(t, tokens.admin, { Model: 'Pixel 9' });
    expect([pixel.Manufacturer, pixel.DeviceType]).toEqual(['Google', 'Android']);
    const jane = await demoCreateRequest(t, tokens.admin, { UserName: 'ACME\\jane.doe' });
    expect(jane.UserEmail).toBe('jane.doe@acme.example');
    const hana = await demoCreateRequest(t, tokens.admin, { UserEmail: 'hana.sato@acme.example' });
    expect(hana.UserName).toBe('ACME\\hana.sato');
    for (let round = 0; round < 20; round++) {
      const made = await demoCreateRequest(t, tokens.admin);
      expectSamePerson(made.UserName, made.UserEmail);
      expectConsistentDevice(made);
    }
    // What it is told, it keeps, even when it does not know it.
    const odd = await demoCreateRequest(t, tokens.admin, { Manufacturer: 'Fairphone', Model: '5', OsVersion: '14' });
    expect([odd.Manufacturer, odd.Model, odd.OsVersion]).toEqual(['Fairphone', '5', '14']);
  });
});

describe('completeDemoDevice and completeDemoPerson', () => {
  it('fills a device from a demo phone that agrees with every given field', () => {
    for (const device of DEMO_DEVICES) {
      expect(completeDemoDevice({ Model: device.Model.toLowerCase() }, first)).toMatchObject({
        Manufacturer: device.Manufacturer,
        DeviceType: device.DeviceType,
        OsVersion: device.OsVersion,
      });
    }
    expect(completeDemoDevice({ DeviceType: 'Android' }, first).Manufacturer).not.toBe('Apple');
    expect(completeDemoDevice({ DeviceType: 'iOS' }, last).Manufacturer).toBe('Apple');
  });

  it('tells an unknown model’s maker and platform from its name, or keeps to the given maker', () => {
    expect(completeDemoDevice({ Model: 'iPhone 17' }, first)).toMatchObject({
      Manufacturer: 'Apple',
      DeviceType: 'iOS',
    });
    expect(completeDemoDevice({ Model: 'Pixel 10' }, first)).toMatchObject({
      Manufacturer: 'Google',
      DeviceType: 'Android',
    });
    expect(completeDemoDevice({ Manufacturer: 'Samsung', Model: 'Galaxy Z Fold' }, first)).toMatchObject({
      DeviceType: 'Android',
    });
    // Apple's iPhone 15 on Android: what was given stays; nothing made up contradicts it.
    const mixed = completeDemoDevice({ Manufacturer: 'Apple', DeviceType: 'Android' }, first);
    expect([mixed.Manufacturer, mixed.DeviceType]).toEqual(['Apple', 'Android']);
    expect(mixed.Model).not.toBe('Pixel 9');
  });

  it('makes the other half of a person from the half given', () => {
    expect(completeDemoPerson({ UserName: 'DEMO\\Jane' }, first)).toEqual({
      UserName: 'DEMO\\Jane',
      UserEmail: 'jane@demo.example',
    });
    expect(completeDemoPerson({ UserEmail: 'jane@contoso.example' }, first)).toEqual({
      UserName: 'CONTOSO\\jane',
      UserEmail: 'jane@contoso.example',
    });
    expect(completeDemoPerson({}, last)).toEqual({ UserName: last(DEMO_PEOPLE)[0], UserEmail: last(DEMO_PEOPLE)[1] });
    for (const [userName, email] of DEMO_PEOPLE) expectSamePerson(userName, email);
  });
});
