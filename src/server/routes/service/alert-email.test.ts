import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AlertDeliveryList, AlertDestinationWithSecret } from '../../../shared/contract/index.ts';
import { enrollDevice } from '../../test/device-helpers.ts';
import { ADMIN, AUDITOR, createTestApp, HELPDESK, OPERATOR, parseBody, type TestApp } from '../../test/harness.ts';
import { createTestPki, type TestPki } from '../../test/test-certificates.ts';

interface Received {
  mail: ParsedMail;
  /** Whether the session had upgraded to TLS (STARTTLS) when the message came. */
  secure: boolean;
  user: string | undefined;
}

/** A real SMTP server on loopback, with STARTTLS offered (or hidden) and a user name and password. */
async function startMailServer(pki: TestPki, { offerStartTls }: { offerStartTls: boolean }) {
  const received: Received[] = [];
  const certificate = pki.issue(`smtp-${offerStartTls}`, offerStartTls ? '5a01' : '5a02');
  const server = new SMTPServer({
    secure: false,
    // A server without STARTTLS at all (hiding it is not enough: smtp-server would still answer the command).
    ...(offerStartTls ? {} : { disabledCommands: ['STARTTLS'] }),
    key: fs.readFileSync(certificate.keyFile),
    cert: fs.readFileSync(certificate.certFile),
    // Plain AUTH is fine here only because the client must have upgraded first (requireTLS).
    allowInsecureAuth: !offerStartTls,
    onAuth(auth, _session, callback) {
      if (auth.username === 'alerts' && auth.password === 'mail-secret') callback(null, { user: auth.username });
      else callback(new Error('Invalid user name or password'));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ mail, secure: session.secure, user: session.user as string | undefined });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { server, port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('email alerts through SMTP_URL', () => {
  let pki: TestPki;
  let t: TestApp | null = null;
  beforeAll(() => {
    pki = createTestPki();
  });
  afterAll(() => pki.remove());
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  const appWithMail = async (port: number) => {
    t = await createTestApp(
      {
        smtpUrl: `smtp://alerts:mail-secret@127.0.0.1:${port}`,
        smtpFrom: 'tachyon@acme.example',
        publicUrl: 'https://tachyon.acme.example',
      },
      { smtpCa: pki.ca },
    );
    const admin = await t.login(...ADMIN);
    const made = await t.call({
      method: 'POST',
      url: '/api/Admin/Alerts/Destinations',
      token: admin,
      payload: {
        Name: 'Security team',
        Channel: 'Email',
        Target: 'soc@acme.example, ciso@acme.example',
        Events: ['PermissionsChanged'],
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(parseBody(made, AlertDestinationWithSecret).Secret).toBeNull();
    const accounts = (await t.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin })).json() as Array<{
      Id: number;
      UserName: string;
    }>;
    const operator = accounts.find((account) => account.UserName === OPERATOR[0]);
    const changed = await t.call({
      method: 'PUT',
      url: `/api/Admin/Accounts/${operator?.Id}/Permissions`,
      token: admin,
      payload: { Permissions: { Security: ['Read', 'Write'], Accounts: [] } },
    });
    expect(changed.statusCode).toBe(200);
    return { t, admin, destinationId: parseBody(made, AlertDestinationWithSecret).Id, operatorId: operator?.Id };
  };

  it('sends plain and HTML mail over STARTTLS, signed in, with the link that answers it and no secret', async () => {
    const mail = await startMailServer(pki, { offerStartTls: true });
    try {
      const { operatorId } = await appWithMail(mail.port);
      await expect.poll(() => mail.received.length, { timeout: 10_000 }).toBe(1);
      const [{ mail: message, secure, user } = {} as Received] = mail.received;
      expect(secure).toBe(true);
      expect(user).toBe('alerts');
      expect(message.from?.text).toBe('tachyon@acme.example');
      expect([message.to].flat().map((to) => to?.text)).toEqual(['soc@acme.example, ciso@acme.example']);
      expect(message.subject).toBe(`Tachyon alert: ${ADMIN[0]} changed the permissions of ${OPERATOR[0]}`);
      const link = `https://tachyon.acme.example/accounts?account=${operatorId}`;
      expect(message.text).toContain(`Open the account: ${link}`);
      expect(message.text).toContain('Now: Security Read, Security Write');
      expect(message.html).toContain(`<a href="${link}">Open the account</a>`);
      // Names are escaped in the HTML part (a user name is typed by someone).
      expect(message.html).toContain('DEMO\\admin');
      expect(`${message.text}${message.html}`).not.toMatch(/mail-secret|whsec_/);
    } finally {
      await mail.close();
    }
  }, 30_000);

  it('sends a device waiting to the approvers: everyone with Security Write who has an email address', async () => {
    const mail = await startMailServer(pki, { offerStartTls: true });
    try {
      const { t: app, admin } = await appWithMail(mail.port);
      await expect.poll(() => mail.received.length, { timeout: 10_000 }).toBe(1);
      const accounts = (await app.call({ method: 'GET', url: '/api/Admin/Accounts', token: admin })).json() as Array<{
        Id: number;
        UserName: string;
      }>;
      const idOf = (name: string) => accounts.find((account) => account.UserName === name)?.Id;
      // The helpdesk may approve; the auditor may not: only the helpdesk's address is an approver's.
      for (const [name, Email] of [
        [HELPDESK[0], 'helpdesk@acme.example'],
        [AUDITOR[0], 'auditor@acme.example'],
      ] as const) {
        const set = await app.call({
          method: 'PUT',
          url: `/api/Admin/Accounts/${idOf(name)}/Email`,
          token: admin,
          payload: { Email },
        });
        expect(set.statusCode, set.body).toBe(200);
      }
      const made = await app.call({
        method: 'POST',
        url: '/api/Admin/Alerts/Destinations',
        token: admin,
        payload: {
          Name: 'Approvers',
          Channel: 'Email',
          Target: 'Approvers, duty@acme.example',
          Events: ['DeviceWaiting'],
        },
      });
      expect(made.statusCode, made.body).toBe(201);
      expect(parseBody(made, AlertDestinationWithSecret).Target).toBe('approvers, duty@acme.example');
      const phone = await enrollDevice(app, { token: await app.login(...AUDITOR) });
      await expect.poll(() => mail.received.length, { timeout: 10_000 }).toBe(2);
      const message = mail.received[1]?.mail;
      expect([message?.to].flat().map((to) => to?.text)).toEqual(['duty@acme.example, helpdesk@acme.example']);
      expect(message?.text).toContain(
        `Approve or reject it: https://tachyon.acme.example/authorization-requests/${phone.AuthorizationRequestId}`,
      );
    } finally {
      await mail.close();
    }
  }, 30_000);

  it('refuses to send through a server that does not offer STARTTLS, and says why in the log', async () => {
    const mail = await startMailServer(pki, { offerStartTls: false });
    try {
      const { t: app, admin, destinationId } = await appWithMail(mail.port);
      const logOf = async () =>
        parseBody(
          await app.call({
            method: 'GET',
            url: `/api/Admin/Alerts/Destinations/${destinationId}/Deliveries`,
            token: admin,
          }),
          AlertDeliveryList,
        );
      await expect.poll(async () => (await logOf())[0]?.LastError ?? '', { timeout: 10_000 }).toMatch(/STARTTLS/);
      expect(mail.received).toEqual([]);
    } finally {
      await mail.close();
    }
  }, 30_000);
});
