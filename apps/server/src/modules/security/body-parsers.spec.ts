import { prototypeFormKey } from './body-parsers';

describe('prototypeFormKey', () => {
  it('finds __proto__ and constructor as any segment of a form key, escaped or not', () => {
    expect(prototypeFormKey('__proto__[admin]=1')).toBe('__proto__');
    expect(prototypeFormKey('name=x&a[constructor][prototype][x]=1')).toBe('constructor');
    expect(prototypeFormKey('a.__proto__.x=1')).toBe('__proto__');
    expect(prototypeFormKey('%5F%5Fproto%5F%5F%5Bx%5D=1')).toBe('__proto__');
    expect(prototypeFormKey('a%5Bconstructor%5D=1')).toBe('constructor');
  });

  it('lets ordinary forms through, including those words as values', () => {
    expect(prototypeFormKey('name=constructor&role=__proto__')).toBeNull();
    expect(prototypeFormKey('a[b][c]=1&%ZZ=2&constructors=3')).toBeNull();
    expect(prototypeFormKey('')).toBeNull();
  });
});
