import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuthorizationRequest } from '../../../shared/contract/index.ts';
import { DeviceSummary } from '../../entities/device/device-summary.tsx';
import { inRouter, renderWithProviders } from '../../test/render.tsx';
import { signInAs } from '../../test/session.ts';
import { RequestFields } from './request-fields.tsx';

// A right-to-left override: unisolated, it would reverse the text that follows it on screen.
const OVERRIDE = '\u202E';
const request: AuthorizationRequest = {
  Id: 7,
  UserName: `ACME\\eve${OVERRIDE}gpj.exe`,
  UserEmail: `eve${OVERRIDE}@acme.example`,
  RequestGuid: '9b2c7c4e-8a3d-4f6e-9d7a-1b2c3d4e5f60',
  DeviceType: `iOS${OVERRIDE}`,
  CreatedTimestampUtc: '2026-11-17 07:30:00.000',
  ModifiedTimestampUtc: '2026-11-17 07:30:00.000',
  Manufacturer: `Apple${OVERRIDE}`,
  Model: `iPhone${OVERRIDE}`,
  OsVersion: `18${OVERRIDE}`,
  Status: 'Rejected',
  DecidedBy: `DEMO\\x${OVERRIDE}`,
  Comment: `fine${OVERRIDE}\nsecond line`,
};

/** The innermost element holding exactly this text must be a <bdi>: any other element would leave it unisolated. */
const isolated = (text: string) => {
  const element = screen.getByText(
    (_content, node) => node?.textContent === text && ![...node.children].some((child) => child.textContent === text),
  );
  expect(element.tagName).toBe('BDI');
};

describe('user-supplied text is isolated (<bdi>)', () => {
  it('in the request fields: every value that came from a person or device', async () => {
    // Read on Security: the user name is a link to the person's page.
    signInAs(['Read']);
    renderWithProviders(inRouter(<RequestFields request={request} />));
    // The user name links to the person's page; the router renders once it has matched.
    await screen.findByRole('link', { name: request.UserName });
    for (const value of [
      request.UserName,
      request.UserEmail,
      request.DeviceType,
      request.Manufacturer,
      request.Model,
      request.OsVersion,
      request.DecidedBy as string,
      request.Comment as string,
    ]) {
      isolated(value);
    }
  });

  it('in the device summary shown in lists, cards and dialogs', () => {
    renderWithProviders(
      <DeviceSummary
        deviceType={request.DeviceType}
        manufacturer={request.Manufacturer}
        model={request.Model}
        osVersion={request.OsVersion}
      />,
    );
    for (const value of [request.DeviceType, request.Manufacturer, request.Model, request.OsVersion]) isolated(value);
  });
});
