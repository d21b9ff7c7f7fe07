// A QR code encoder (ISO/IEC 18004) for the projector's join address: byte mode, error
// correction level M, versions 1 to 10 (up to 213 bytes, far more than an address). Written here
// rather than loaded from elsewhere: the page takes nothing from the internet (a school LAN may
// have none, and the Content-Security-Policy allows only this server's files).
// `TouchSchoolQR.encode(text)` gives the matrix (rows of booleans, true = dark);
// `TouchSchoolQR.draw(canvas, text, largest)` paints it with its quiet zone.
'use strict';
const TouchSchoolQR = (() => {
  /** Per version 1…10 at level M: error correction codewords per block and the blocks' data lengths. */
  const BLOCKS = [
    null,
    { ec: 10, data: [16] },
    { ec: 16, data: [28] },
    { ec: 26, data: [44] },
    { ec: 18, data: [32, 32] },
    { ec: 24, data: [43, 43] },
    { ec: 16, data: [27, 27, 27, 27] },
    { ec: 18, data: [31, 31, 31, 31] },
    { ec: 22, data: [38, 38, 39, 39] },
    { ec: 22, data: [36, 36, 36, 37, 37] },
    { ec: 26, data: [43, 43, 43, 43, 44] },
  ];
  /** Centres of the alignment patterns, per version. */
  const ALIGNMENT = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];
  /** Level M's two format bits. */
  const LEVEL_M = 0;
  const MASKS = [
    (x, y) => (x + y) % 2 === 0,
    (x, y) => y % 2 === 0,
    (x) => x % 3 === 0,
    (x, y) => (x + y) % 3 === 0,
    (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
    (x, y) => (x * y) % 2 + (x * y) % 3 === 0,
    (x, y) => ((x * y) % 2 + (x * y) % 3) % 2 === 0,
    (x, y) => ((x + y) % 2 + (x * y) % 3) % 2 === 0,
  ];

  /** Multiplication in GF(256) modulo x^8 + x^4 + x^3 + x^2 + 1. */
  function multiply(x, y) {
    let z = 0;
    for (let i = 7; i >= 0; i--) {
      z = (z << 1) ^ ((z >>> 7) * 0x11d);
      z ^= ((y >>> i) & 1) * x;
    }
    return z;
  }

  /** The Reed-Solomon generator polynomial of `degree` (leading 1 left out). */
  function divisor(degree) {
    const result = new Array(degree).fill(0);
    result[degree - 1] = 1;
    let root = 1;
    for (let i = 0; i < degree; i++) {
      for (let j = 0; j < degree; j++) {
        result[j] = multiply(result[j], root);
        if (j + 1 < degree) result[j] ^= result[j + 1];
      }
      root = multiply(root, 2);
    }
    return result;
  }

  function remainder(data, by) {
    const result = new Array(by.length).fill(0);
    for (const byte of data) {
      const factor = byte ^ result.shift();
      result.push(0);
      by.forEach((coefficient, i) => { result[i] ^= multiply(coefficient, factor); });
    }
    return result;
  }

  /** The data codewords: mode, length, the bytes, terminator and padding, to `capacity` bytes. */
  function codewords(bytes, version, capacity) {
    const bits = [];
    const put = (value, length) => { for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
    put(0b0100, 4);
    put(bytes.length, version < 10 ? 8 : 16);
    for (const byte of bytes) put(byte, 8);
    put(0, Math.min(4, capacity * 8 - bits.length));
    while (bits.length % 8 !== 0) bits.push(0);
    const result = [];
    for (let i = 0; i < bits.length; i += 8) result.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
    for (let pad = 0xec; result.length < capacity; pad ^= 0xec ^ 0x11) result.push(pad);
    return result;
  }

  /** The data split into blocks, each followed by its error correction, interleaved. */
  function interleaved(data, blocks) {
    const generator = divisor(blocks.ec);
    const split = [];
    let at = 0;
    for (const length of blocks.data) { split.push(data.slice(at, at + length)); at += length; }
    const corrections = split.map((block) => remainder(block, generator));
    const result = [];
    for (let i = 0; i < Math.max(...blocks.data); i++) for (const block of split) if (i < block.length) result.push(block[i]);
    for (let i = 0; i < blocks.ec; i++) for (const correction of corrections) result.push(correction[i]);
    return result;
  }

  function encode(text) {
    const bytes = [...new TextEncoder().encode(text)];
    let version = 1;
    // Mode and length take 12 bits below version 10, 20 from it.
    const fits = (v) => BLOCKS[v].data.reduce((a, b) => a + b, 0) * 8 >= 4 + (v < 10 ? 8 : 16) + bytes.length * 8;
    while (version < BLOCKS.length && !fits(version)) version++;
    if (version >= BLOCKS.length) throw new RangeError('too long for a QR code of version 10');
    const blocks = BLOCKS[version];
    const all = interleaved(codewords(bytes, version, blocks.data.reduce((a, b) => a + b, 0)), blocks);

    const size = version * 4 + 17;
    const dark = Array.from({ length: size }, () => new Array(size).fill(false));
    const fixed = Array.from({ length: size }, () => new Array(size).fill(false));
    const set = (x, y, value) => { dark[y][x] = value; fixed[y][x] = true; };

    for (let i = 0; i < size; i++) { set(6, i, i % 2 === 0); set(i, 6, i % 2 === 0); }
    for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const x = cx + dx, y = cy + dy;
          const ring = Math.max(Math.abs(dx), Math.abs(dy));
          if (x >= 0 && x < size && y >= 0 && y < size) set(x, y, ring !== 2 && ring !== 4);
        }
      }
    }
    const centres = ALIGNMENT[version];
    const last = centres.length - 1;
    centres.forEach((cx, i) => centres.forEach((cy, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }));
    format(set, size, 0);
    if (version >= 7) {
      let rest = version;
      for (let i = 0; i < 12; i++) rest = (rest << 1) ^ ((rest >>> 11) * 0x1f25);
      const bits = (version << 12) | rest;
      for (let i = 0; i < 18; i++) {
        const bit = ((bits >>> i) & 1) === 1, a = size - 11 + (i % 3), b = Math.floor(i / 3);
        set(a, b, bit);
        set(b, a, bit);
      }
    }

    // The codewords, two columns at a time, up and down from the bottom right corner.
    let i = 0;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      for (let vertical = 0; vertical < size; vertical++) {
        for (let j = 0; j < 2; j++) {
          const x = right - j;
          const y = ((right + 1) & 2) === 0 ? size - 1 - vertical : vertical;
          if (!fixed[y][x] && i < all.length * 8) {
            dark[y][x] = ((all[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
            i++;
          }
        }
      }
    }

    // Of the eight masks, the one whose result is easiest to read (the standard's penalty).
    let best = null, bestPenalty = Infinity;
    MASKS.forEach((mask, m) => {
      const candidate = dark.map((row, y) => row.map((value, x) => (!fixed[y][x] && mask(x, y) ? !value : value)));
      format((x, y, value) => { candidate[y][x] = value; }, size, m);
      const score = penalty(candidate);
      if (score < bestPenalty) { best = candidate; bestPenalty = score; }
    });
    return best;
  }

  /** The format information (level M and `mask`, BCH-coded) in both of its places. */
  function format(set, size, mask) {
    const data = (LEVEL_M << 3) | mask;
    let rest = data;
    for (let i = 0; i < 10; i++) rest = (rest << 1) ^ ((rest >>> 9) * 0x537);
    const bits = ((data << 10) | rest) ^ 0x5412;
    const bit = (i) => ((bits >>> i) & 1) === 1;
    for (let i = 0; i <= 5; i++) set(8, i, bit(i));
    set(8, 7, bit(6));
    set(8, 8, bit(7));
    set(7, 8, bit(8));
    for (let i = 9; i < 15; i++) set(14 - i, 8, bit(i));
    for (let i = 0; i < 8; i++) set(size - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i++) set(8, size - 15 + i, bit(i));
    set(8, size - 8, true);
  }

  /** The standard's four penalties: long runs, 2×2 blocks, finder-like patterns, dark balance. */
  function penalty(m) {
    const size = m.length;
    let score = 0, darkCount = 0;
    const lines = [];
    for (let y = 0; y < size; y++) lines.push(m[y]);
    for (let x = 0; x < size; x++) lines.push(m.map((row) => row[x]));
    const finder = [true, false, true, true, true, false, true];
    for (const line of lines) {
      let run = 1;
      for (let i = 1; i <= size; i++) {
        if (i < size && line[i] === line[i - 1]) { run++; continue; }
        if (run >= 5) score += run - 2;
        run = 1;
      }
      for (let i = 0; i + 7 <= size; i++) {
        if (!finder.every((value, k) => line[i + k] === value)) continue;
        const lightBefore = i >= 4 && [1, 2, 3, 4].every((k) => !line[i - k]);
        const lightAfter = i + 11 <= size && [0, 1, 2, 3].every((k) => !line[i + 7 + k]);
        if (lightBefore || lightAfter) score += 40;
      }
    }
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        if (m[y][x]) darkCount++;
        if (x + 1 < size && y + 1 < size && m[y][x] === m[y][x + 1] && m[y][x] === m[y + 1][x] && m[y][x] === m[y + 1][x + 1]) score += 3;
      }
    }
    score += Math.floor(Math.abs(darkCount * 100 / (size * size) - 50) / 5) * 10;
    return score;
  }

  /**
   * Paints the code of `text` on `canvas`, with its four-module quiet zone, at most `largest`
   * pixels a side: whole pixels a module (never scaled afterwards, so every edge stays sharp).
   */
  function draw(canvas, text, largest) {
    const matrix = encode(text);
    const scale = Math.max(1, Math.floor(largest / (matrix.length + 8)));
    const side = (matrix.length + 8) * scale;
    canvas.width = side;
    canvas.height = side;
    const context = canvas.getContext('2d');
    context.fillStyle = '#fff';
    context.fillRect(0, 0, side, side);
    context.fillStyle = '#000';
    matrix.forEach((row, y) => row.forEach((isDark, x) => {
      if (isDark) context.fillRect((x + 4) * scale, (y + 4) * scale, scale, scale);
    }));
  }

  return Object.freeze({ encode, draw });
})();
