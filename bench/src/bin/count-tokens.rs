//! `count-tokens [FILE...]`: the cl100k_base token count of each file (or of stdin), the
//! tokenizer `make bench` uses for its token figures. For ad-hoc measurements, such as counting
//! what an agent read in a trial.

use std::io::Read;

use anyhow::{Context, Result};

fn main() -> Result<()> {
    let bpe = tiktoken_rs::cl100k_base().context("loading cl100k_base")?;
    let count = |bytes: &[u8]| bpe.encode_ordinary(&String::from_utf8_lossy(bytes)).len();
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        let mut input = Vec::new();
        std::io::stdin().read_to_end(&mut input)?;
        println!("{}", count(&input));
    }
    for file in files {
        let bytes = std::fs::read(&file).with_context(|| format!("reading {file}"))?;
        println!("{}\t{file}", count(&bytes));
    }
    Ok(())
}
