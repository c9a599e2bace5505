import { describe, expect, it } from 'vitest';
import { DEFAULT_TRUSTED_NETWORKS, TrustedNetworks, clientKey } from './trusted-networks.js';

describe('TrustedNetworks', () => {
  it('trusts loopback by default, in both families and IPv4 seen through IPv6', () => {
    const trusted = new TrustedNetworks(DEFAULT_TRUSTED_NETWORKS);
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1'].map((ip) => trusted.has(ip))).toEqual([true, true, true]);
    expect(['127.0.0.2', '10.0.0.1', '::2', 'garbage', undefined].map((ip) => trusted.has(ip))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('matches CIDRs and bare addresses', () => {
    const trusted = new TrustedNetworks(['10.1.0.0/16', '192.168.7.9', '2001:db8::/32']);
    expect(trusted.has('10.1.200.3')).toBe(true);
    expect(trusted.has('10.2.0.1')).toBe(false);
    expect(trusted.has('192.168.7.9')).toBe(true);
    expect(trusted.has('192.168.7.10')).toBe(false);
    expect(trusted.has('2001:db8:ffff::1')).toBe(true);
  });

  it('refuses a malformed entry at start', () => {
    expect(() => new TrustedNetworks(['10.0.0.0/33'])).toThrow(/TRUSTED_NETWORKS/);
    expect(() => new TrustedNetworks(['intranet'])).toThrow(/TRUSTED_NETWORKS/);
  });
});

describe('clientKey', () => {
  it('counts IPv4 by address and IPv6 by its /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:0db8:0001:0002:ffff:1:2:3'));
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
  });
});
