import fc from 'fast-check';
import { type Endpoint, type EndpointName, endpoints, SUPPORTED_VERSIONS } from '../../shared/contract/index.ts';

/** The fuzz tests' generators (src/server/reliability/fuzz.test.ts): malformed requests of every kind. */
// Endpoints go by name, so a failing counterexample reads well.
// The change stream never ends when it succeeds, so inject() would wait forever; its own tests cover it.
export const catalogue = (Object.keys(endpoints) as EndpointName[]).filter((name) => name !== 'changeEvents');
export const bodyEndpoints = catalogue.filter((name) => endpointOf(name).body !== undefined);

export function endpointOf(name: EndpointName): Endpoint {
  return endpoints[name];
}

export const nastyStrings = [
  '',
  ' ',
  '\u0000',
  '\uFEFF',
  '\u202Eevil',
  '💥🔥',
  'İıſK',
  'ﬀ',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '0x1F',
  '١٢٣',
  '../../etc/passwd',
  '%00',
  '%',
  "' OR 1=1 --",
  '"; DROP TABLE principals; --',
  '<script>alert(1)</script>',
  '#{7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'DEMO\\admin',
  '00000000-0000-0000-0000-000000000000',
];

export const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 3, arbitrary: fc.constantFrom(...nastyStrings) },
  { weight: 1, arbitrary: fc.nat({ max: 5000 }).map((n) => 'x'.repeat(n)) },
);

export const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    0,
    -0,
    -1,
    1.5,
    2 ** 31 - 1,
    2 ** 31,
    2 ** 32,
    2 ** 53 - 1,
    2 ** 53 + 2,
    2 ** 63,
    1e21,
    1e308,
    -1e308,
    5e-324,
  ),
);

/** Deeply nested arrays or objects: what a recursive parser or validator chokes on. */
export const nested = fc.integer({ min: 20, max: 3000 }).chain((depth) =>
  fc
    .constantFrom(
      () => {
        let value: unknown = 1;
        for (let i = 0; i < depth; i++) value = [value];
        return value;
      },
      () => {
        let value: unknown = 'x';
        for (let i = 0; i < depth; i++) value = { Id: value };
        return value;
      },
    )
    .map((build) => build()),
);

export const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: text },
  { weight: 3, arbitrary: number },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: nested },
);

/** Every field name a body could carry, the real ones in odd casing included. */
export const fieldName = fc.oneof(
  fc.constantFrom(
    'UserName',
    'username',
    'USERNAME',
    'Password',
    'Id',
    'id',
    'ID',
    'InstructionId',
    'Token',
    'RequestId',
    'requestid',
    'RequestGuid',
    'Authorized',
    'Comment',
    'Status',
    'status',
    'Scheduled',
    'DeviceType',
    'ModifiedTimestampUtc',
    'CreatedTimeStampUtc',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    '',
  ),
  fc.string({ maxLength: 12 }),
);

export const nonObjectBody = fc.oneof(
  fc.array(jsonValue, { maxLength: 4 }),
  text,
  number,
  fc.boolean(),
  fc.constant(null),
);

/** A well-formed JSON document, mutated from the endpoint's valid example. */
export function mutatedBody(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  const fromValid = fc
    .record({
      drop: keys.length > 0 ? fc.subarray(keys) : fc.constant([] as string[]),
      replace: fc.array(fc.tuple(keys.length > 0 ? fc.constantFrom(...keys) : fieldName, jsonValue), { maxLength: 3 }),
      extra: fc.array(fc.tuple(fieldName, jsonValue), { maxLength: 3 }),
      recase: fc.constantFrom('keep', 'lower', 'upper'),
    })
    .map(({ drop, replace, extra, recase }) => {
      const body: Record<string, unknown> = { ...valid };
      for (const key of drop) delete body[key];
      for (const [key, value] of replace) body[key] = value;
      for (const [key, value] of extra) body[key] = value;
      if (recase === 'keep') return body;
      return Object.fromEntries(
        Object.entries(body).map(([key, value]) => [recase === 'lower' ? key.toLowerCase() : key.toUpperCase(), value]),
      );
    });
  return fc.oneof({ weight: 4, arbitrary: fromValid }, { weight: 1, arbitrary: nonObjectBody });
}

/** Bytes that are not the JSON they claim to be, or JSON that trips parsers. */
export const rawPayload = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '{"Id":}',
    '[1,]',
    "{'Id':1}",
    '{"Id":1,}',
    'NaN',
    'undefined',
    '\uFEFF{}',
    '{"Id":1e999}',
    '{"Id":-1e999,"Status":1}',
    '{"Id":123456789012345678901234567890,"Status":1}',
    '{"Id":1,"Id":"x","Status":1}',
    '{"__proto__":{"Status":1},"Id":1}',
    '{"constructor":{"prototype":{"isAdmin":true}}}',
    '{"Id":1,"Status":1}garbage',
    '{"Id":"\\ud800","Token":"\\u0000"}',
    '\u0000\u0001\u0002',
    'null',
    '""',
    '[]',
  ),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.integer({ min: 1000, max: 30_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.integer({ min: 1000, max: 10_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.integer({ min: 60_000, max: 80_000 }).map((n) => `{"UserName":"${'a'.repeat(n)}","Password":"x"}`),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `[${'1,'.repeat(n)}1]`),
);

export const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'Application/Json; Charset=UTF-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json;;',
  'application/json, text/plain',
  'application/problem+json',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '*/*',
  'json',
  ';',
  '',
);

/** What an HTTP header can carry: visible ASCII, spaces, tabs and obs-text bytes. */
export const headerText = fc.oneof(
  fc.string({
    unit: fc
      .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }))
      .map((c) => String.fromCharCode(c)),
    maxLength: 40,
  }),
  fc.constantFrom('', ' ', '\t', 'null', '%00', '\u00ff\u00fe'),
  fc.nat({ max: 8000 }).map((n) => 'h'.repeat(n)),
);

export const apiVersion = fc.oneof(
  fc.constantFrom(...SUPPORTED_VERSIONS),
  fc.constantFrom(
    '3',
    '3.',
    '3.30',
    '3.3.0',
    'v3.3',
    ' 3.3 ',
    '3.3,4.0',
    '4.0; q=1',
    '2.9',
    '5.0',
    '-3.3',
    '3,3',
    '03.3',
  ),
  headerText,
);

export const ifNoneMatch = fc.oneof(
  fc.constantFrom('*', '"x"', 'W/"x"', '"push_message_users-all-1"', ',,,', 'W/'),
  headerText,
);

/** A path in odd casing, with odd suffixes: the router must stay case-insensitive and never stumble. */
export function pathVariant(path: string): fc.Arbitrary<string> {
  return fc
    .record({
      casing: fc.constantFrom('keep', 'lower', 'upper', 'mixed'),
      suffix: fc.constantFrom(
        '',
        '',
        '',
        '/',
        '//',
        '/.',
        '/..',
        '/%2e%2e',
        ';x',
        '%2F',
        '/extra',
        '%00',
        '%',
        '%zz',
        '/%E0%A4%A',
      ),
      prefix: fc.constantFrom('', '', '', '/', '/.'),
    })
    .map(({ casing, suffix, prefix }) => {
      const cased =
        casing === 'keep'
          ? path
          : casing === 'lower'
            ? path.toLowerCase()
            : casing === 'upper'
              ? path.toUpperCase()
              : [...path].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join('');
      return `${prefix}${cased}${suffix}`;
    });
}

export const idParam = fc.oneof(
  fc.nat().map(String),
  fc.constantFrom(
    '0',
    '-1',
    '1.5',
    '1e3',
    ' 1',
    '0x10',
    '١',
    '2147483648',
    '9007199254740993',
    '99999999999999999999',
    '%20',
    '%2e%2e',
    '..',
    'null',
    '%F0%9F%92%A5',
  ),
  fc.integer({ min: 150, max: 400 }).map((n) => '9'.repeat(n)),
  text.map((value) => encodeURIComponent(value)),
);

export const query = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom('getall', 'GetAll', 'getAll', 'GETALL', 'get all', '__proto__', 'a[b]', ''), text),
    fc.oneof(fc.constantFrom('true', 'false', 'TRUE', 'False', '1', '0', 'yes', '', 'null', 'true,false'), text),
    fc.boolean(),
  ),
  { maxLength: 4 },
);

export function buildQuery(pairs: ReadonlyArray<readonly [string, string, boolean]>): string {
  if (pairs.length === 0) return '';
  // Mostly well encoded; sometimes raw, as a sloppy client would send it.
  return `?${pairs.map(([key, value, encode]) => (encode ? `${encodeURIComponent(key)}=${encodeURIComponent(value)}` : `${key}=${value}`)).join('&')}`;
}

export function fillPath(endpoint: Endpoint, id: string): string {
  return endpoint.path.replace(/:(\w+)/g, () => id);
}
