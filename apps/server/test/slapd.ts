import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const run = promisify(execFile);

export const SLAPD_PATH = process.env.SLAPD_PATH ?? '/usr/sbin/slapd';
const SLAPADD_PATH = path.join(path.dirname(SLAPD_PATH), 'slapadd');
const SCHEMA_DIR = '/etc/ldap/schema';
const MODULE_DIR = '/usr/lib/ldap';

/** Why the directory tests cannot run here, or undefined when they can (shown as the skipped suite's name). */
export const slapdMissing: string | undefined = fs.existsSync(SLAPD_PATH)
  ? undefined
  : `OpenLDAP's slapd is not installed at ${SLAPD_PATH} (apt-get install slapd ldap-utils)`;

export const BASE_DN = 'dc=example,dc=test';
export const PEOPLE_DN = `ou=people,${BASE_DN}`;
export const GROUPS_DN = `ou=groups,${BASE_DN}`;
/** Groups outside the group search base: found only through the people's memberOf. */
export const TEAMS_DN = `ou=teams,${BASE_DN}`;
/** The directory's root account, for tests that change entries while the server runs. */
export const ROOT = { dn: `cn=admin,${BASE_DN}`, password: 'admin-secret' };
/** A read-only service account, as an administrator would create for the platform. */
export const READER = { dn: `cn=reader,${BASE_DN}`, password: 'reader-secret' };

/** The seeded people; the third one's uid holds every character a search filter gives meaning to. */
export const PEOPLE = {
  alice: {
    dn: `uid=alice,${PEOPLE_DN}`,
    uid: 'alice',
    mail: 'alice@example.test',
    cn: 'Alice Archer',
    password: 'alice-pw',
  },
  bob: { dn: `uid=bob,${PEOPLE_DN}`, uid: 'bob', mail: 'bob@example.test', cn: 'Bob Baker', password: 'bob-pw' },
  carol: {
    dn: `cn=Carol Star,${PEOPLE_DN}`,
    uid: 'car*ol(qa)\\1',
    mail: 'carol@example.test',
    cn: 'Carol Star',
    password: 'carol-pw',
  },
} as const;

export const GROUPS = {
  engineering: `cn=engineering,${GROUPS_DN}`,
  admins: `cn=admins,${GROUPS_DN}`,
} as const;

function seedLdif(): string {
  const { alice, bob, carol } = PEOPLE;
  const person = (p: { dn: string; uid: string; mail: string; cn: string; password: string }) => `dn: ${p.dn}
objectClass: inetOrgPerson
uid: ${p.uid}
cn: ${p.cn}
sn: ${p.cn.split(' ')[1]}
mail: ${p.mail}
userPassword: ${p.password}
`;
  return [
    `dn: ${BASE_DN}
objectClass: dcObject
objectClass: organization
dc: example
o: Example
`,
    `dn: ${READER.dn}
objectClass: organizationalRole
objectClass: simpleSecurityObject
cn: reader
userPassword: ${READER.password}
`,
    `dn: ${PEOPLE_DN}
objectClass: organizationalUnit
ou: people
`,
    `dn: ${GROUPS_DN}
objectClass: organizationalUnit
ou: groups
`,
    `dn: ${TEAMS_DN}
objectClass: organizationalUnit
ou: teams
`,
    person(alice),
    person(bob),
    person(carol),
    `dn: ${GROUPS.engineering}
objectClass: groupOfNames
cn: engineering
member: ${alice.dn}
member: ${bob.dn}
member: ${carol.dn}
`,
    `dn: ${GROUPS.admins}
objectClass: groupOfNames
cn: admins
member: ${alice.dn}
`,
  ].join('\n');
}

interface TlsFiles {
  ca: string;
  cert: string;
  key: string;
}

/** A private certificate authority and a server certificate for 127.0.0.1 / localhost, made by openssl. */
async function makeCertificates(dir: string): Promise<TlsFiles> {
  const file = (name: string) => path.join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run(
    'openssl',
    ['req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem')].concat([
      '-days',
      '2',
      '-subj',
      '/CN=Directory Test CA',
    ]),
  );
  await run('openssl', [
    'req',
    ...ec,
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
    '-subj',
    '/CN=localhost',
  ]);
  fs.writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.pem'),
    '-days',
    '2',
    '-extfile',
    file('server.ext'),
  ]);
  return { ca: file('ca.pem'), cert: file('server.pem'), key: file('server.key') };
}

function slapdConf(dir: string, tls: TlsFiles | undefined): string {
  const tlsLines = tls
    ? `TLSCACertificateFile ${tls.ca}\nTLSCertificateFile ${tls.cert}\nTLSCertificateKeyFile ${tls.key}\n`
    : '';
  return `include ${SCHEMA_DIR}/core.schema
include ${SCHEMA_DIR}/cosine.schema
include ${SCHEMA_DIR}/inetorgperson.schema
modulepath ${MODULE_DIR}
moduleload back_mdb
moduleload memberof
# Like many servers in the field, accept a bind with a DN and an empty password as an
# unauthenticated bind, so a client that does not refuse empty passwords is caught.
allow bind_anon_cred
pidfile ${dir}/slapd.pid
argsfile ${dir}/slapd.args
${tlsLines}
database mdb
maxsize 16777216
suffix "${BASE_DN}"
rootdn "${ROOT.dn}"
rootpw ${ROOT.password}
directory ${dir}/db
# memberOf on people, kept by the server for groups added over LDAP (not by slapadd).
overlay memberof
access to attrs=userPassword by anonymous auth by self write by * none
access to * by * read
`;
}

/** Resolves once something accepts connections on the port; rejects when the process ends first or after 15 s. */
async function waitForListener(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`slapd exited (${child.exitCode}): ${stderr()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`slapd did not listen on ${port}: ${stderr()}`);
}

export interface Slapd {
  url: string;
  port: number;
  /** TLS from the first byte, when started with TLS. */
  ldapsUrl?: string;
  /** The private CA's certificate (PEM) when started with TLS: what an administrator would add to the trust store. */
  caPem?: string;
  stop(): Promise<void>;
}

/**
 * Starts a private OpenLDAP server for one test file: a temporary directory with an old-style
 * slapd.conf, the seed entries loaded by slapadd, slapd in the foreground on a free port of
 * 127.0.0.1. With `tls`, StartTLS is offered with a certificate from a private CA, which
 * also serves ldaps:// on a second port.
 */
export async function startSlapd(options: { tls?: boolean } = {}): Promise<Slapd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'slapd-'));
  fs.mkdirSync(path.join(dir, 'db'));
  const tls = options.tls ? await makeCertificates(dir) : undefined;
  const conf = path.join(dir, 'slapd.conf');
  fs.writeFileSync(conf, slapdConf(dir, tls));
  fs.writeFileSync(path.join(dir, 'seed.ldif'), seedLdif());
  await run(SLAPADD_PATH, ['-q', '-f', conf, '-l', path.join(dir, 'seed.ldif')]);

  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = tls ? `ldaps://127.0.0.1:${await freePort()}` : undefined;
  const listeners = [url, ldapsUrl].filter((u) => u !== undefined).map((u) => `${u}/`);
  // -d keeps slapd in the foreground, so killing the child ends the server.
  const child = spawn(SLAPD_PATH, ['-h', listeners.join(' '), '-f', conf, '-d', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const cleanUp = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForListener(port, child, () => stderr);
    if (ldapsUrl) await waitForListener(Number(new URL(ldapsUrl).port), child, () => stderr);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return { url, port, ldapsUrl, caPem: tls ? fs.readFileSync(tls.ca, 'utf8') : undefined, stop: cleanUp };
}
