// ristretto255 on bytes for the no-peek deal, and ed25519 signatures of a page's messages,
// from @noble/curves (audited): the functions pishe/table/group.py's NobleGroup calls under Pyodide. No arithmetic of our own: every
// operation is the library's. Points and scalars are 32 bytes (RFC 9496, little-endian);
// the CPython backend (libsodium) gives identical bytes (tests/test_nopeek.py).
// `curves` is the library's ed25519.js module, imported by whoever loads this one (the
// worker, or the test under Node), so that this file names no path of the build's.

export function makeGroup(curves) {
  const { ed25519, ristretto255, ristretto255_hasher } = curves;
  const Point = ristretto255.Point;
  const Fn = Point.Fn;

  const number = (bytes) => Fn.fromBytes(bytes);
  const point = (bytes) => Point.fromBytes(bytes);

  // 64 bytes, little-endian, reduced modulo the order (libsodium's scalar_reduce).
  const scalar = (wide) => {
    let x = 0n;
    for (let i = wide.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(wide[i]);
    return Fn.toBytes(Fn.create(x));
  };
  const times = (a, b) => Fn.toBytes(Fn.mul(number(a), number(b)));
  const multiply = (s, p) => point(p).multiply(number(s)).toBytes();
  // One call for a whole deck: each column joined, `size` bytes an item; 32 bytes out an item.
  const each = (f, size) => (...columns) => {
    const count = columns[0].length / size;
    const out = new Uint8Array(32 * count);
    for (let i = 0; i < count; i++) {
      out.set(f(...columns.map((c) => c.subarray(i * size, (i + 1) * size))), 32 * i);
    }
    return out;
  };

  return {
    cardPoint: (uniform) => ristretto255_hasher.deriveToCurve(uniform).toBytes(),
    scalar,
    invert: (s) => Fn.toBytes(Fn.inv(number(s))),
    times,
    base: (s) => Point.BASE.multiply(number(s)).toBytes(),
    multiply,
    scalarEach: each(scalar, 64),
    timesEach: each(times, 32),
    multiplyEach: each(multiply, 32),
    // ed25519 from a 32-byte seed (RFC 8032), verified strictly as libsodium does.
    signPublic: (seed) => ed25519.getPublicKey(seed),
    sign: (seed, message) => ed25519.sign(message, seed),
    verify: (publicKey, message, signature) => {
      try {
        return ed25519.verify(signature, message, publicKey, { zip215: false });
      } catch {
        return false;
      }
    },
  };
}
