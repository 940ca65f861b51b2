//! The output budget, and the one fitter every bounded answer goes through.
//!
//! A document that must fit a [`Budget`] declares, as data, how it may shrink: an ordered list
//! of [`Stage`]s. A [`Stage::Detail`] has levels from 0 (nothing cut) to its deepest; a
//! [`Stage::Window`] shows the first `n` of a list of entries, the rest going to the next page.
//! The stages are listed in the order they give way. [`fit`] renders the document whole if it
//! fits; else it cuts every stage as deep as it goes and then eases each one, the last (most
//! important) first, as far as the room left allows, measuring each rendering: a document's
//! most important part is settled first and the rest fills what room is left.
//!
//! Invariants:
//! - The budget counts bytes of the rendered answer; its unit is in the type, never a bare
//!   number ([`Budget::tokens`] converts at [`BYTES_PER_TOKEN`]).
//! - The cut notes a rendering carries are derived from the settings it was rendered with
//!   ([`Stage::notes`]): a stage at level 0, or a window showing every entry, says nothing, and
//!   a stage that cut says so. A note can therefore never claim a cut that did not happen, nor
//!   a cut go unsaid.
//! - The notes are part of what is measured: the document renders them.
//! - A window never shows fewer than its least entries, whatever the budget: a page always
//!   advances. When even the deepest cut does not fit, the result says so with
//!   [`Cut::Over`] rather than dropping an entry.

use std::fmt;

/// Bytes per token assumed when a budget is given in tokens: JSON averages a little over three
/// bytes per token, so this errs on the side of fitting.
pub const BYTES_PER_TOKEN: usize = 3;

/// How large an answer may be, in bytes of its rendered form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Budget {
    bytes: usize,
}

impl Budget {
    /// A budget of `bytes` bytes.
    pub const fn bytes(bytes: usize) -> Budget {
        Budget { bytes }
    }

    /// A budget of about `tokens` tokens ([`BYTES_PER_TOKEN`] bytes each).
    pub const fn tokens(tokens: usize) -> Budget {
        Budget {
            bytes: tokens.saturating_mul(BYTES_PER_TOKEN),
        }
    }

    /// The bytes the budget allows.
    pub const fn as_bytes(self) -> usize {
        self.bytes
    }

    /// Whether a rendering of `len` bytes fits.
    pub const fn fits(self, len: usize) -> bool {
        len <= self.bytes
    }

    /// What is left after `used` bytes.
    pub const fn less(self, used: usize) -> Budget {
        Budget {
            bytes: self.bytes.saturating_sub(used),
        }
    }

    /// `percent` per cent of the budget.
    pub const fn share(self, percent: usize) -> Budget {
        Budget {
            bytes: self.bytes / 100 * percent + self.bytes % 100 * percent / 100,
        }
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} bytes", self.bytes)
    }
}

/// One thing cut to fit a budget, as the answer states it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cut {
    /// A kind of detail left out or shortened, as the document names it (`"commit message
    /// bodies"`, `"files beyond the first 3 of each commit (counts kept)"`).
    Detail(String),
    /// Entries moved to the next page.
    Moved {
        /// What the entries are (`"files"`, `"commits"`).
        entries: &'static str,
        /// How many this page shows.
        shown: usize,
        /// The budget they were moved to fit.
        budget: Budget,
    },
    /// What is on later pages, in the document's own words (which files' hunks, say).
    Later(String),
    /// Even the deepest cut is over the budget.
    Over {
        /// The budget.
        budget: Budget,
        /// What a page always holds (`"one file"`).
        least: &'static str,
    },
}

impl fmt::Display for Cut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cut::Detail(text) | Cut::Later(text) => f.write_str(text),
            Cut::Moved {
                entries,
                shown,
                budget,
            } => write!(
                f,
                "{entries} moved to the next page to fit {budget} ({shown} shown)"
            ),
            Cut::Over { budget, least } => {
                write!(f, "still over {budget}: a page holds at least {least}")
            }
        }
    }
}

/// The notes of a detail stage at a level above 0.
pub type DetailNotes<'a> = Box<dyn Fn(usize) -> Vec<Cut> + 'a>;
/// The note of a window showing fewer entries than it has.
pub type WindowNote<'a> = Box<dyn Fn(usize, Budget) -> Cut + 'a>;

/// One way a document may shrink, declared by the document.
pub enum Stage<'a> {
    /// A level of detail: 0 shows everything, each level up to `deepest` cuts more. The level
    /// is the stage's setting.
    Detail {
        /// The deepest level.
        deepest: usize,
        /// What a level above 0 cut.
        notes: DetailNotes<'a>,
    },
    /// The first entries of a list: the setting is how many are shown, from `least` to
    /// `most`; `total` is how many there are in all (more than `most` when the document only
    /// prepared some of them).
    Window {
        /// The fewest shown whatever the budget.
        least: usize,
        /// The most shown.
        most: usize,
        /// How many entries there are.
        total: usize,
        /// What a page always holds, for [`Cut::Over`] (`"one file"`).
        holds: &'static str,
        /// What showing `shown` of them (fewer than `total`) within a budget cut.
        note: WindowNote<'a>,
    },
}

impl<'a> Stage<'a> {
    /// A detail stage with one note per level (`notes[level - 1]`).
    pub fn detail(notes: Vec<Cut>) -> Stage<'a> {
        let deepest = notes.len();
        Stage::Detail {
            deepest,
            notes: Box::new(move |level| {
                level
                    .checked_sub(1)
                    .and_then(|i| notes.get(i))
                    .cloned()
                    .into_iter()
                    .collect()
            }),
        }
    }

    /// The same detail stage cut at most to level `deepest` (a window is left as it is): a
    /// document whose detail gives way only in some renderings.
    pub fn limited(self, deepest: usize) -> Stage<'a> {
        match self {
            Stage::Detail {
                deepest: own,
                notes,
            } => Stage::Detail {
                deepest: own.min(deepest),
                notes,
            },
            window => window,
        }
    }

    /// A window that moves entries to the next page, noted as [`Cut::Moved`]: `entries`
    /// names them (`"files"`), `holds` what a page always holds (`"one file"`).
    pub fn moving(
        entries: &'static str,
        holds: &'static str,
        least: usize,
        most: usize,
    ) -> Stage<'a> {
        Stage::Window {
            least: least.min(most),
            most,
            total: most,
            holds,
            note: Box::new(move |shown, budget| Cut::Moved {
                entries,
                shown,
                budget,
            }),
        }
    }

    /// The setting that cuts nothing.
    fn initial(&self) -> usize {
        match self {
            Stage::Detail { .. } => 0,
            Stage::Window { most, .. } => *most,
        }
    }

    /// The setting that cuts the most.
    fn deepest(&self) -> usize {
        match self {
            Stage::Detail { deepest, .. } => *deepest,
            Stage::Window { least, .. } => *least,
        }
    }

    /// The notes of this stage at `setting` within `budget`: none when it cut nothing.
    pub fn notes(&self, setting: usize, budget: Budget) -> Vec<Cut> {
        match self {
            Stage::Detail { notes, .. } if setting > 0 => notes(setting),
            Stage::Window { total, note, .. } if setting < *total => vec![note(setting, budget)],
            _ => Vec::new(),
        }
    }
}

/// The settings of one rendering: each stage's level or window, and the notes they imply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    values: Vec<usize>,
    cuts: Vec<Cut>,
}

impl Settings {
    /// The setting of stage `i` (its level, or how many entries its window shows).
    pub fn get(&self, i: usize) -> usize {
        self.values.get(i).copied().unwrap_or(0)
    }

    /// What these settings cut, in stage order.
    pub fn cuts(&self) -> &[Cut] {
        &self.cuts
    }

    /// The cuts as the answer states them.
    pub fn notes(&self) -> Vec<String> {
        self.cuts.iter().map(Cut::to_string).collect()
    }

    /// Whether anything was cut.
    pub fn cut_anything(&self) -> bool {
        !self.cuts.is_empty()
    }
}

/// A document fitted to its budget.
#[derive(Debug)]
pub struct Fitted<T> {
    /// The rendering.
    pub doc: T,
    /// What it was rendered with.
    pub settings: Settings,
    /// Whether it is within the budget.
    pub fits: bool,
}

/// A rendering tried: its settings, the document, and whether it fits.
type Tried<T> = (Settings, T, bool);

/// The widest window in `least..=most` whose rendering fits (by halving; `tries` renders one
/// width and says whether it fits), with that rendering; `least` and none when none does.
fn widest<T, E>(
    least: usize,
    most: usize,
    mut tries: impl FnMut(usize) -> Result<Tried<T>, E>,
) -> Result<(usize, Option<Tried<T>>), E> {
    let (mut lo, mut hi) = (least, most);
    let mut found = None;
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        let tried = tries(mid)?;
        if tried.2 {
            lo = mid;
            found = Some(tried);
        } else {
            hi = mid - 1;
        }
    }
    Ok((lo, found))
}

/// Renders a document within `budget` (or whole, without one). `stages` are listed in the
/// order they give way: the first is cut first, the last keeps the most. Each stage, from the
/// last to the first, gets the least cut that still fits with every stage before it cut as deep
/// as it goes (detail levels tried one at a time from 0, windows by binary search for the most
/// entries that fit); so a document's most important part is settled first and the rest fills
/// what room is left. `render` returns the document at the given settings and its size in
/// bytes, and must render the settings' cuts ([`Settings::cuts`]). A deeper level or a smaller
/// window must never make the rendering larger.
pub fn fit<T, E>(
    budget: Option<Budget>,
    stages: &[Stage<'_>],
    mut render: impl FnMut(&Settings) -> Result<(T, usize), E>,
) -> Result<Fitted<T>, E> {
    let values: Vec<usize> = stages.iter().map(Stage::initial).collect();
    // A window that holds only some of its entries cuts even at its most.
    let mut settings = Settings {
        cuts: notes_of(stages, &values, budget.unwrap_or(Budget::bytes(usize::MAX))),
        values,
    };
    let (doc, len) = render(&settings)?;
    let budget = match budget {
        Some(b) if !b.fits(len) => b,
        _ => {
            return Ok(Fitted {
                doc,
                settings,
                fits: true,
            });
        }
    };
    // Every stage as deep as it goes; then each, from the last, eased as far as room allows.
    for (i, stage) in stages.iter().enumerate() {
        settings.values[i] = stage.deepest();
    }
    let mut fits_with = |values: &[usize]| -> Result<(Settings, T, bool), E> {
        let s = Settings {
            values: values.to_vec(),
            cuts: notes_of(stages, values, budget),
        };
        let (doc, len) = render(&s)?;
        Ok((s, doc, budget.fits(len)))
    };
    let mut last: Option<(Settings, T, bool)> = None;
    for (i, stage) in stages.iter().enumerate().rev() {
        let mut values = settings.values.clone();
        match stage {
            Stage::Detail { .. } => {
                // The least level that fits; the deepest when none does.
                for level in 0..stage.deepest() {
                    values[i] = level;
                    let tried = fits_with(&values)?;
                    if tried.2 {
                        settings.values[i] = level;
                        last = Some(tried);
                        break;
                    }
                }
            }
            Stage::Window { least, most, .. } => {
                let (width, found) = widest(*least, *most, |width| {
                    values[i] = width;
                    fits_with(&values)
                })?;
                settings.values[i] = width;
                if let Some(tried) = found {
                    last = Some(tried);
                }
            }
        }
        // A rendering kept from a search is only current while no later stage changed.
        if last
            .as_ref()
            .is_some_and(|(s, _, _)| s.values != settings.values)
        {
            last = None;
        }
    }
    let (mut settings, doc, fits) = match last {
        Some(found) => found,
        None => fits_with(&settings.values)?,
    };
    if fits {
        return Ok(Fitted {
            doc,
            settings,
            fits,
        });
    }
    settings.cuts.push(Cut::Over {
        budget,
        least: least_of(stages),
    });
    let (doc, len) = render(&settings)?;
    Ok(Fitted {
        doc,
        settings,
        fits: budget.fits(len),
    })
}

/// What a page always holds, for the over-budget note: the last window's declaration.
fn least_of(stages: &[Stage<'_>]) -> &'static str {
    stages
        .iter()
        .rev()
        .find_map(|s| match s {
            Stage::Window { holds, .. } => Some(*holds),
            Stage::Detail { .. } => None,
        })
        .unwrap_or("its fixed part")
}

fn notes_of(stages: &[Stage<'_>], values: &[usize], budget: Budget) -> Vec<Cut> {
    stages
        .iter()
        .zip(values)
        .flat_map(|(s, v)| s.notes(*v, budget))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::Rng;

    /// A stand-in document: a fixed part, detail that shrinks with each level, entries of given
    /// sizes, and the notes as rendered text.
    struct Doc {
        fixed: usize,
        detail: Vec<usize>,
        entries: Vec<usize>,
        /// Entries beyond those prepared.
        beyond: usize,
    }

    impl Doc {
        fn stages(&self) -> Vec<Stage<'static>> {
            let levels = self.detail.len().saturating_sub(1);
            vec![
                Stage::detail(
                    (1..=levels)
                        .map(|l| Cut::Detail(format!("detail level {l}")))
                        .collect(),
                ),
                Stage::Window {
                    least: 1.min(self.entries.len()),
                    most: self.entries.len(),
                    total: self.entries.len() + self.beyond,
                    holds: "one entry",
                    note: Box::new(|shown, budget| Cut::Moved {
                        entries: "entries",
                        shown,
                        budget,
                    }),
                },
            ]
        }

        fn render(&self, s: &Settings) -> (Vec<String>, usize) {
            let notes = s.notes();
            let len = self.fixed
                + self.detail[s.get(0)]
                + self.entries[..s.get(1)].iter().sum::<usize>()
                + notes.iter().map(String::len).sum::<usize>();
            (notes, len)
        }
    }

    #[test]
    fn nothing_is_cut_when_everything_fits() {
        let doc = Doc {
            fixed: 10,
            detail: vec![50, 20],
            entries: vec![5, 5],
            beyond: 0,
        };
        let budget = Budget::bytes(100);
        let fitted = fit(Some(budget), &doc.stages(), |s| Ok::<_, ()>(doc.render(s))).unwrap();
        assert!(fitted.fits);
        assert!(fitted.doc.is_empty());
        assert!(!fitted.settings.cut_anything());
    }

    #[test]
    fn detail_goes_first_then_entries_move() {
        let doc = Doc {
            fixed: 10,
            detail: vec![500, 100, 20],
            entries: vec![30, 30, 30, 30],
            beyond: 0,
        };
        let budget = Budget::bytes(150);
        let fitted = fit(Some(budget), &doc.stages(), |s| Ok::<_, ()>(doc.render(s))).unwrap();
        assert!(fitted.fits);
        assert_eq!(fitted.settings.get(0), 2);
        assert!(fitted.settings.get(1) < 4);
        assert_eq!(fitted.doc[0], "detail level 2");
        assert!(fitted.doc[1].starts_with("entries moved to the next page to fit 150 bytes"));
    }

    #[test]
    fn a_single_entry_over_budget_is_kept_and_said_to_be_over() {
        let doc = Doc {
            fixed: 10,
            detail: vec![10],
            entries: vec![1000],
            beyond: 0,
        };
        let budget = Budget::bytes(100);
        let fitted = fit(Some(budget), &doc.stages(), |s| Ok::<_, ()>(doc.render(s))).unwrap();
        assert!(!fitted.fits);
        assert_eq!(fitted.settings.get(1), 1);
        // Nothing moved: the only entry is shown, so no note says it moved.
        assert_eq!(
            fitted.doc,
            ["still over 100 bytes: a page holds at least one entry"]
        );
    }

    #[test]
    fn budgets_convert_and_split() {
        assert_eq!(Budget::tokens(10), Budget::bytes(30));
        assert_eq!(Budget::bytes(1000).share(55), Budget::bytes(550));
        assert_eq!(Budget::bytes(199).share(50), Budget::bytes(99));
        assert_eq!(Budget::bytes(10).less(20), Budget::bytes(0));
        assert_eq!(Budget::bytes(7).to_string(), "7 bytes");
    }

    // Property: whatever the document, a note is present exactly for each stage whose setting
    // cut something (no note claims what did not happen, no cut goes unsaid), the rendering
    // fits whenever it does not say it is over, and a window shows at least its least entries.
    #[test]
    fn cut_notes_never_claim_what_did_not_happen() {
        let mut rng = Rng::new(0x5eed_b0d9);
        for round in 0..3000 {
            let levels = rng.below(4);
            let mut detail: Vec<usize> = (0..=levels).map(|_| rng.below(400)).collect();
            detail.sort_unstable_by(|a, b| b.cmp(a));
            let entries: Vec<usize> = (0..rng.below(12)).map(|_| rng.below(200)).collect();
            let doc = Doc {
                fixed: rng.below(50),
                detail,
                entries,
                beyond: if rng.one_in(3) { rng.below(5) } else { 0 },
            };
            let budget = Budget::bytes(rng.below(900));
            let stages = doc.stages();
            let fitted = fit(Some(budget), &stages, |s| Ok::<_, ()>(doc.render(s))).unwrap();
            let s = &fitted.settings;
            let over = s.cuts().iter().any(|c| matches!(c, Cut::Over { .. }));
            let (_, len) = doc.render(s);
            assert_eq!(fitted.fits, budget.fits(len), "round {round}");
            assert_eq!(!over, fitted.fits, "round {round}: {:?}", s.cuts());
            let detail_notes = s
                .cuts()
                .iter()
                .filter(|c| matches!(c, Cut::Detail(_)))
                .count();
            assert_eq!(detail_notes, usize::from(s.get(0) > 0), "round {round}");
            let moved = s.cuts().iter().any(|c| matches!(c, Cut::Moved { .. }));
            assert_eq!(
                moved,
                s.get(1) < doc.entries.len() + doc.beyond,
                "round {round}"
            );
            if let Some(Cut::Moved { shown, .. }) =
                s.cuts().iter().find(|c| matches!(c, Cut::Moved { .. }))
            {
                assert_eq!(*shown, s.get(1), "round {round}");
            }
            assert!(s.get(1) >= 1.min(doc.entries.len()), "round {round}");
            // Each stage was cut no further than needed: the window (settled first, with the
            // detail at its deepest) could not show one more entry, and the detail (settled
            // last) could not be one level less cut.
            let render_at = |values: Vec<usize>| {
                let cuts = notes_of(&stages, &values, budget);
                doc.render(&Settings { values, cuts }).1
            };
            if fitted.fits && s.get(1) < doc.entries.len() {
                let deepest = doc.detail.len() - 1;
                assert!(
                    !budget.fits(render_at(vec![deepest, s.get(1) + 1])),
                    "round {round}"
                );
            }
            if fitted.fits && s.get(0) > 0 {
                assert!(
                    !budget.fits(render_at(vec![s.get(0) - 1, s.get(1)])),
                    "round {round}"
                );
            }
        }
    }
}
