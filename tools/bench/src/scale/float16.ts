const scratch = new DataView(new ArrayBuffer(4));

/**
 * IEEE 754 half-precision bits of a number (round to nearest, ties to even), as PostgreSQL's halfvec
 * stores each component. Overflow becomes ±Infinity, which halfvec rejects — unit vectors never get there.
 */
export function toFloat16Bits(value: number): number {
  scratch.setFloat32(0, value);
  const bits = scratch.getUint32(0);
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  let mantissa = bits & 0x7fffff;

  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0); // NaN or Infinity
  const halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return sign | 0x7c00; // overflow → Infinity
  if (halfExponent <= 0) {
    // Subnormal half (or zero): shift the mantissa with its implicit leading 1 into place.
    if (halfExponent < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - halfExponent;
    let half = mantissa >>> shift;
    const remainder = mantissa & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (remainder > halfway || (remainder === halfway && (half & 1) === 1)) half++;
    return sign | half;
  }
  let half = (halfExponent << 10) | (mantissa >>> 13);
  const remainder = mantissa & 0x1fff;
  // Carrying into the exponent (and on to Infinity) is exactly what rounding up should do.
  if (remainder > 0x1000 || (remainder === 0x1000 && (half & 1) === 1)) half++;
  return sign | half;
}

/** The number a half-precision bit pattern stands for. */
export function fromFloat16Bits(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >>> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}
