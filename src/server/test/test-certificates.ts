import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A throwaway certificate authority made with the openssl command line at test time, in a temporary folder: nothing
 * secret is kept in the repository, and nothing made here outlives the test run. P-256 keys: quick to make.
 */
export interface TestPki {
  folder: string;
  /** The CA certificate (PEM), for clients to trust. */
  ca: string;
  /**
   * A server certificate for localhost and 127.0.0.1 signed by the CA, with this serial number (hex), its chain (the
   * certificate, then the CA's) written to `<name>.pem` and its key to `<name>.key`.
   */
  issue(name: string, serial: string, key?: 'ec' | 'rsa'): IssuedCertificate;
  remove(): void;
}

export interface IssuedCertificate {
  certFile: string;
  keyFile: string;
  /** As Node prints it (X509Certificate.serialNumber, getPeerCertificate().serialNumber): upper-case hex. */
  serialNumber: string;
  fingerprint256: string;
}

function openssl(folder: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: folder, stdio: 'pipe' });
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
/** For what only an RSA certificate can offer (static-RSA key exchange). */
const RSA_KEY = ['-newkey', 'rsa:2048', '-nodes'];

export function createTestPki(): TestPki {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tachyon-tls-'));
  openssl(folder, [
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Tachyon test CA',
  ]);
  fs.writeFileSync(path.join(folder, 'server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  const ca = fs.readFileSync(path.join(folder, 'ca.pem'), 'utf8');
  return {
    folder,
    ca,
    issue(name, serial, key = 'ec') {
      openssl(folder, [
        'req',
        ...(key === 'rsa' ? RSA_KEY : EC_KEY),
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.csr`,
        '-subj',
        '/CN=localhost',
      ]);
      openssl(folder, [
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-set_serial',
        `0x${serial}`,
        '-days',
        '2',
        '-extfile',
        'server.ext',
        '-out',
        `${name}.leaf.pem`,
      ]);
      const leaf = fs.readFileSync(path.join(folder, `${name}.leaf.pem`), 'utf8');
      const certFile = path.join(folder, `${name}.pem`);
      fs.writeFileSync(certFile, leaf + ca);
      const certificate = new X509Certificate(leaf);
      return {
        certFile,
        keyFile: path.join(folder, `${name}.key`),
        serialNumber: certificate.serialNumber,
        fingerprint256: certificate.fingerprint256,
      };
    },
    remove() {
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
