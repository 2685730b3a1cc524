// ristretto255 on bytes for the no-peek deal, from @noble/curves (audited): the functions
// pishe/table/group.py's NobleGroup calls under Pyodide. No arithmetic of our own: every
// operation is the library's. Points and scalars are 32 bytes (RFC 9496, little-endian);
// the CPython backend (libsodium) gives identical bytes (tests/test_nopeek.py).
// `curves` is the library's ed25519.js module, imported by whoever loads this one (the
// worker, or the test under Node), so that this file names no path of the build's.

export function makeGroup(curves) {
  const { ristretto255, ristretto255_hasher } = curves;
  const Point = ristretto255.Point;
  const Fn = Point.Fn;

  const number = (bytes) => Fn.fromBytes(bytes);
  const point = (bytes) => Point.fromBytes(bytes);

  return {
    cardPoint: (uniform) => ristretto255_hasher.deriveToCurve(uniform).toBytes(),
    // 64 bytes, little-endian, reduced modulo the order (libsodium's scalar_reduce).
    scalar: (wide) => {
      let x = 0n;
      for (let i = wide.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(wide[i]);
      return Fn.toBytes(Fn.create(x));
    },
    invert: (s) => Fn.toBytes(Fn.inv(number(s))),
    times: (a, b) => Fn.toBytes(Fn.mul(number(a), number(b))),
    base: (s) => Point.BASE.multiply(number(s)).toBytes(),
    multiply: (s, p) => point(p).multiply(number(s)).toBytes(),
    // Many products in one call (a whole deck): scalars and points each joined, 32 bytes apiece.
    multiplyEach: (scalars, points) => {
      const out = new Uint8Array(points.length);
      for (let at = 0; at < points.length; at += 32) {
        out.set(point(points.subarray(at, at + 32)).multiply(number(scalars.subarray(at, at + 32))).toBytes(), at);
      }
      return out;
    },
  };
}
