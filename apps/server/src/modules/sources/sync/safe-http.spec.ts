import { isRefusedAddress } from './safe-http';

describe('isRefusedAddress', () => {
  it('refuses private, loopback, link-local, unspecified, shared and multicast addresses', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      'not an address',
    ]) {
      expect({ address, refused: isRefusedAddress(address) }).toEqual({ address, refused: true });
    }
  });

  it('lets public addresses through', () => {
    for (const address of ['93.184.216.34', '172.32.0.1', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect({ address, refused: isRefusedAddress(address) }).toEqual({ address, refused: false });
    }
  });
});
