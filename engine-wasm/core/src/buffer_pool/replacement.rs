//! Victim selection: PostgreSQL's clock sweep, or LRU for comparison.
//!
//! Clock sweep (freelist.c, `StrategyGetBuffer`): a hand moves round the frames;
//! at each unpinned frame it decrements the usage count, and takes the first
//! unpinned frame whose count is already zero. Pinned frames are passed over; if
//! the hand passes every frame without finding an unpinned one it gives up with
//! "no unpinned buffers available". Accesses raise the count (`PinBuffer`, capped
//! at [`MAX_USAGE_COUNT`]), so a page survives as many sweeps as it was recently used.
//!
//! LRU evicts the unpinned frame whose last access is the oldest: the textbook
//! policy, kept so a lesson can show what clock sweep approximates.

use super::error::BufferError;
use super::frame::{Frame, MAX_USAGE_COUNT};

/// Which replacement policy the pool uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReplacementPolicy {
    /// PostgreSQL's clock sweep with usage counts (the default).
    #[default]
    ClockSweep,
    /// Least recently used.
    Lru,
}

impl ReplacementPolicy {
    /// Parses a setting value: `clock`, `clock-sweep`, `clock_sweep` or `lru`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "clock" | "clock-sweep" | "clock_sweep" | "clocksweep" => {
                Some(ReplacementPolicy::ClockSweep)
            }
            "lru" => Some(ReplacementPolicy::Lru),
            _ => None,
        }
    }

    /// The setting value that selects this policy.
    pub fn name(self) -> &'static str {
        match self {
            ReplacementPolicy::ClockSweep => "clock-sweep",
            ReplacementPolicy::Lru => "lru",
        }
    }
}

/// The replacement state of a pool.
#[derive(Debug, Clone)]
pub(super) enum Replacer {
    Clock { hand: usize },
    Lru(LruList),
}

impl Replacer {
    pub fn new(policy: ReplacementPolicy, frames: usize) -> Self {
        match policy {
            ReplacementPolicy::ClockSweep => Replacer::Clock { hand: 0 },
            ReplacementPolicy::Lru => Replacer::Lru(LruList::new(frames)),
        }
    }

    pub fn policy(&self) -> ReplacementPolicy {
        match self {
            Replacer::Clock { .. } => ReplacementPolicy::ClockSweep,
            Replacer::Lru(_) => ReplacementPolicy::Lru,
        }
    }

    /// A page already in `frame` is used again. PostgreSQL raises the usage count
    /// only when this backend does not already hold a pin (`PinBuffer`): re-reading
    /// the page a scan is positioned on does not make it more popular.
    pub fn on_hit(&mut self, frames: &mut [Frame], frame: usize) {
        let f = &mut frames[frame];
        if f.pins == 0 && f.usage_count < MAX_USAGE_COUNT {
            f.usage_count += 1;
        }
        if let Replacer::Lru(list) = self {
            list.touch(frame);
        }
    }

    /// A page was just loaded into `frame`: PostgreSQL starts it at usage count 1
    /// (`BufferAlloc` sets `BUF_USAGECOUNT_ONE`).
    pub fn on_load(&mut self, frames: &mut [Frame], frame: usize) {
        frames[frame].usage_count = 1;
        if let Replacer::Lru(list) = self {
            list.touch(frame);
        }
    }

    /// `frame` was emptied (its relation dropped): it leaves the LRU order.
    pub fn on_invalidate(&mut self, frame: usize) {
        if let Replacer::Lru(list) = self {
            list.unlink(frame);
        }
    }

    /// Chooses a frame to reuse. Every frame holds a page (free frames are used first).
    pub fn victim(&mut self, frames: &mut [Frame]) -> Result<usize, BufferError> {
        match self {
            Replacer::Clock { hand } => clock_sweep(frames, hand),
            Replacer::Lru(list) => list.victim(frames).ok_or(BufferError::NoUnpinnedBuffers),
        }
    }

    /// Where the clock hand points (for the UI), `None` under LRU.
    pub fn hand(&self) -> Option<usize> {
        match self {
            Replacer::Clock { hand } => Some(*hand),
            Replacer::Lru(_) => None,
        }
    }
}

/// `StrategyGetBuffer`'s loop. `try_counter` is reset whenever a usage count is
/// decremented, and only counts down on pinned frames, exactly as in freelist.c: a
/// victim is found within five full turns when any frame is unpinned.
fn clock_sweep(frames: &mut [Frame], hand: &mut usize) -> Result<usize, BufferError> {
    let n = frames.len();
    let mut try_counter = n;
    loop {
        // ClockSweepTick: take the frame under the hand, then advance the hand.
        let id = *hand;
        *hand = (id + 1) % n;
        let f = &mut frames[id];
        if f.pins == 0 {
            if f.usage_count == 0 {
                return Ok(id);
            }
            f.usage_count -= 1;
            try_counter = n;
        } else {
            try_counter -= 1;
            if try_counter == 0 {
                return Err(BufferError::NoUnpinnedBuffers);
            }
        }
    }
}

const NIL: u32 = u32::MAX;

/// An intrusive doubly linked list of frames, most recently used first.
#[derive(Debug, Clone)]
pub(super) struct LruList {
    prev: Vec<u32>,
    next: Vec<u32>,
    linked: Vec<bool>,
    head: u32,
    tail: u32,
}

impl LruList {
    fn new(frames: usize) -> Self {
        LruList {
            prev: vec![NIL; frames],
            next: vec![NIL; frames],
            linked: vec![false; frames],
            head: NIL,
            tail: NIL,
        }
    }

    fn unlink(&mut self, f: usize) {
        if !self.linked[f] {
            return;
        }
        let (p, n) = (self.prev[f], self.next[f]);
        match p {
            NIL => self.head = n,
            p => self.next[p as usize] = n,
        }
        match n {
            NIL => self.tail = p,
            n => self.prev[n as usize] = p,
        }
        self.linked[f] = false;
    }

    fn touch(&mut self, f: usize) {
        self.unlink(f);
        self.prev[f] = NIL;
        self.next[f] = self.head;
        match self.head {
            NIL => self.tail = f as u32,
            h => self.prev[h as usize] = f as u32,
        }
        self.head = f as u32;
        self.linked[f] = true;
    }

    /// The least recently used unpinned frame.
    fn victim(&self, frames: &[Frame]) -> Option<usize> {
        let mut f = self.tail;
        while f != NIL {
            if frames[f as usize].pins == 0 {
                return Some(f as usize);
            }
            f = self.prev[f as usize];
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(usage: &[u8]) -> Vec<Frame> {
        usage
            .iter()
            .map(|&u| Frame {
                usage_count: u,
                ..Frame::EMPTY
            })
            .collect()
    }

    #[test]
    fn clock_sweep_decrements_until_a_zero() {
        let mut fr = frames(&[2, 1, 3]);
        let mut hand = 0;
        // Turn 1: 2→1, 1→0, 3→2; turn 2: 1→0, frame 1 is at 0 → victim.
        assert_eq!(clock_sweep(&mut fr, &mut hand), Ok(1));
        assert_eq!(hand, 2);
        let counts: Vec<u8> = fr.iter().map(|f| f.usage_count).collect();
        assert_eq!(counts, vec![0, 0, 2]);
    }

    #[test]
    fn clock_sweep_fails_when_all_pinned() {
        let mut fr = frames(&[0, 0]);
        fr.iter_mut().for_each(|f| f.pins = 1);
        let mut hand = 0;
        assert_eq!(
            clock_sweep(&mut fr, &mut hand),
            Err(BufferError::NoUnpinnedBuffers)
        );
    }

    #[test]
    fn lru_order_and_pins() {
        let mut fr = frames(&[1, 1, 1]);
        let mut list = LruList::new(3);
        for f in [0, 1, 2, 0] {
            list.touch(f);
        }
        assert_eq!(list.victim(&fr), Some(1));
        fr[1].pins = 1;
        assert_eq!(list.victim(&fr), Some(2));
        list.unlink(2);
        assert_eq!(list.victim(&fr), Some(0));
        fr[0].pins = 1;
        assert_eq!(list.victim(&fr), None);
    }

    #[test]
    fn policy_names_round_trip() {
        for p in [ReplacementPolicy::ClockSweep, ReplacementPolicy::Lru] {
            assert_eq!(ReplacementPolicy::from_name(p.name()), Some(p));
        }
        assert_eq!(
            ReplacementPolicy::from_name(" Clock "),
            Some(ReplacementPolicy::ClockSweep)
        );
        assert_eq!(ReplacementPolicy::from_name("fifo"), None);
    }
}
