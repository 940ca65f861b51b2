//! Randomised inputs for the property tests (unit and integration): a small seeded generator,
//! so a failing case is reproducible from its seed, and generators of the hostile values the
//! properties are checked against (empty, huge, control bytes, not UTF-8, option-like). Not
//! part of the program's behaviour; public only so the integration tests share it.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

/// A seeded SplitMix64 generator.
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.bits() % n as u64) as usize
        }
    }

    /// True with probability `1/n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A hostile byte string: usually short and plausible, sometimes empty, huge, full of
    /// control bytes or invalid UTF-8.
    pub fn bytes(&mut self) -> Vec<u8> {
        match self.below(8) {
            0 => Vec::new(),
            1 => vec![b'x'; 1 + self.below(40_000)],
            2 => (0..self.below(64)).map(|_| self.bits() as u8).collect(),
            3 => b"\xff\xfe\x00\n\t\"\\".to_vec(),
            _ => {
                let alphabet = b"abcXYZ019-_./:^~@{}!*?[]=, ";
                (0..1 + self.below(24))
                    .map(|_| *self.pick(alphabet))
                    .collect()
            }
        }
    }

    /// A hostile byte string of at most `max` bytes.
    pub fn short_bytes(&mut self, max: usize) -> Vec<u8> {
        let mut b = self.bytes();
        b.truncate(max);
        b
    }

    /// A hostile string (valid UTF-8).
    pub fn string(&mut self) -> String {
        String::from_utf8_lossy(&self.bytes()).into_owned()
    }

    /// A hostile argument.
    pub fn arg(&mut self) -> OsString {
        OsString::from_vec(self.bytes())
    }

    /// A hostile number: small, zero, or at the edges of its type.
    pub fn number(&mut self) -> u64 {
        match self.below(6) {
            0 => 0,
            1 => u64::MAX,
            2 => u64::from(u32::MAX),
            3 => usize::MAX as u64 / 2,
            _ => self.below(100) as u64,
        }
    }
}
