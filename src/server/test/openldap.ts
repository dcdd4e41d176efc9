import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A throwaway OpenLDAP (Debian's slapd) on 127.0.0.1 for the directory sign-in tests (`npm run test:ldap`): its own
 * cn=config, a CA and server certificate made with openssl for StartTLS, and an ACME directory with users and groups
 * (one group nested in another). Stopped and started again on the same port to play an outage.
 */
export const SUFFIX = 'dc=acme,dc=test';
export const ADMIN_DN = `cn=admin,${SUFFIX}`;
export const ADMIN_PASSWORD = 'directory admin secret';
export const SEARCH_DN = `cn=tachyon-search,ou=services,${SUFFIX}`;
export const SEARCH_PASSWORD = 'search account secret';
export const USER_BASE = `ou=people,${SUFFIX}`;
export const GROUP_READ = `cn=tachyon-security-read,ou=groups,${SUFFIX}`;
export const GROUP_WRITE = `cn=tachyon-security-write,ou=groups,${SUFFIX}`;
/** A member of the Write group through this group (nested). */
export const GROUP_HELPDESK = `cn=helpdesk-team,ou=groups,${SUFFIX}`;

export const PEOPLE = {
  /** In the Write group through helpdesk-team (nested). */
  writer: { uid: 'wanda.writer', password: 'wanda directory pass' },
  /** Directly in the Read group. */
  reader: { uid: 'rob.reader', password: 'rob directory pass' },
  /** In neither group. */
  outsider: { uid: 'olga.outsider', password: 'olga directory pass' },
  /** In the Read group, but disabled the Active Directory way (userAccountControl ACCOUNTDISABLE). */
  disabled: { uid: 'dora.disabled', password: 'dora directory pass' },
} as const;

const SLAPD = ['/usr/sbin/slapd', '/usr/local/libexec/slapd'].find((file) => fs.existsSync(file)) ?? 'slapd';
const SLAPADD = ['/usr/sbin/slapadd'].find((file) => fs.existsSync(file)) ?? 'slapadd';
const MODULES = ['/usr/lib/ldap', '/usr/lib/x86_64-linux-gnu/ldap', '/usr/lib/aarch64-linux-gnu/ldap'].find((dir) =>
  fs.existsSync(path.join(dir, 'back_mdb.so')),
);
const SCHEMA = '/etc/ldap/schema';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function run(command: string, args: string[], cwd: string): void {
  execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A CA and a server certificate for 127.0.0.1 and localhost, valid for a day. */
function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const file = (name: string) => path.join(dir, name);
  run(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=Tachyon test CA',
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.pem'),
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  run(
    'openssl',
    [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      file('server.key'),
      '-out',
      file('server.csr'),
    ],
    dir,
  );
  fs.writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  run(
    'openssl',
    [
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      file('server.ext'),
      '-out',
      file('server.pem'),
    ],
    dir,
  );
  return { ca: file('ca.pem'), cert: file('server.pem'), key: file('server.key') };
}

const configLdif = (dir: string, tls: { ca: string; cert: string; key: string }) => `dn: cn=config
objectClass: olcGlobal
cn: config
olcPidFile: ${dir}/slapd.pid
olcTLSCACertificateFile: ${tls.ca}
olcTLSCertificateFile: ${tls.cert}
olcTLSCertificateKeyFile: ${tls.key}

dn: cn=module{0},cn=config
objectClass: olcModuleList
cn: module{0}
olcModulePath: ${MODULES}
olcModuleLoad: back_mdb

dn: cn=schema,cn=config
objectClass: olcSchemaConfig
cn: schema

include: file://${SCHEMA}/core.ldif

include: file://${SCHEMA}/cosine.ldif

include: file://${SCHEMA}/nis.ldif

include: file://${SCHEMA}/inetorgperson.ldif

include: file://${SCHEMA}/msuser.ldif

dn: olcDatabase={-1}frontend,cn=config
objectClass: olcDatabaseConfig
objectClass: olcFrontendConfig
olcDatabase: {-1}frontend

dn: olcDatabase={0}config,cn=config
objectClass: olcDatabaseConfig
olcDatabase: {0}config
olcAccess: {0}to * by * none

dn: olcDatabase={1}mdb,cn=config
objectClass: olcDatabaseConfig
objectClass: olcMdbConfig
olcDatabase: {1}mdb
olcDbDirectory: ${dir}/data
olcSuffix: ${SUFFIX}
olcRootDN: ${ADMIN_DN}
olcRootPW: ${ADMIN_PASSWORD}
olcDbMaxSize: 67108864
olcAccess: {0}to attrs=userPassword by self read by anonymous auth by * none
olcAccess: {1}to * by dn.exact="${SEARCH_DN}" read by users read by * none
`;

/**
 * People carry Active Directory's userAccountControl too (Debian's msuser schema, allowed by extensibleObject), so
 * AD's disabled flag is tried for real. (The schema gives sAMAccountName no equality rule, so searches use uid.)
 */
const person = (uid: string, password: string, name: string, userAccountControl = 512) => `dn: uid=${uid},${USER_BASE}
objectClass: inetOrgPerson
objectClass: extensibleObject
uid: ${uid}
mail: ${uid}@acme.example
userAccountControl: ${userAccountControl}
cn: ${name}
sn: ${name.split(' ').at(-1)}
userPassword: ${password}
`;

const dataLdif = () => `dn: ${SUFFIX}
objectClass: dcObject
objectClass: organization
dc: acme
o: ACME

dn: ou=people,${SUFFIX}
objectClass: organizationalUnit
ou: people

dn: ou=groups,${SUFFIX}
objectClass: organizationalUnit
ou: groups

dn: ou=services,${SUFFIX}
objectClass: organizationalUnit
ou: services

dn: ${SEARCH_DN}
objectClass: organizationalRole
objectClass: simpleSecurityObject
cn: tachyon-search
userPassword: ${SEARCH_PASSWORD}

${person(PEOPLE.writer.uid, PEOPLE.writer.password, 'Wanda Writer')}
${person(PEOPLE.reader.uid, PEOPLE.reader.password, 'Rob Reader')}
${person(PEOPLE.outsider.uid, PEOPLE.outsider.password, 'Olga Outsider')}
${person(PEOPLE.disabled.uid, PEOPLE.disabled.password, 'Dora Disabled', 514)}
dn: ${GROUP_HELPDESK}
objectClass: groupOfNames
cn: helpdesk-team
member: uid=${PEOPLE.writer.uid},${USER_BASE}

dn: ${GROUP_WRITE}
objectClass: groupOfNames
cn: tachyon-security-write
member: ${GROUP_HELPDESK}

dn: ${GROUP_READ}
objectClass: groupOfNames
cn: tachyon-security-read
member: uid=${PEOPLE.reader.uid},${USER_BASE}
member: uid=${PEOPLE.disabled.uid},${USER_BASE}
`;

export class OpenLdap {
  readonly dir: string;
  readonly port: number;
  readonly caFile: string;
  private process: ChildProcess | null = null;

  private constructor(dir: string, port: number, caFile: string) {
    this.dir = dir;
    this.port = port;
    this.caFile = caFile;
  }

  get url(): string {
    return `ldap://127.0.0.1:${this.port}`;
  }

  static async create(): Promise<OpenLdap> {
    if (!MODULES)
      throw new Error('slapd modules (back_mdb.so) not found: install Debian slapd (npm run test:ldap does)');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-ldap-'));
    fs.mkdirSync(path.join(dir, 'config'));
    fs.mkdirSync(path.join(dir, 'data'));
    const tls = makeCertificates(dir);
    fs.writeFileSync(path.join(dir, 'config.ldif'), configLdif(dir, tls));
    fs.writeFileSync(path.join(dir, 'data.ldif'), dataLdif());
    run(SLAPADD, ['-n', '0', '-F', path.join(dir, 'config'), '-l', path.join(dir, 'config.ldif')], dir);
    run(SLAPADD, ['-n', '1', '-F', path.join(dir, 'config'), '-l', path.join(dir, 'data.ldif')], dir);
    const server = new OpenLdap(dir, await freePort(), tls.ca);
    await server.start();
    return server;
  }

  /** Starts slapd (again) on the same port and data, and waits until it accepts connections. */
  async start(): Promise<void> {
    // -d 0 keeps slapd in the foreground, so this process owns it and can stop it.
    const child = spawn(SLAPD, ['-d', '0', '-h', this.url, '-F', path.join(this.dir, 'config')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    this.process = child;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`slapd exited (${child.exitCode}): ${stderr}`);
      if (await this.accepts()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`slapd did not accept connections on ${this.url} within 15 s: ${stderr}`);
  }

  private accepts(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = net.connect(this.port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  }

  /** Stops slapd and waits until it has exited (the port refuses connections). */
  async stop(): Promise<void> {
    const child = this.process;
    this.process = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  async remove(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
