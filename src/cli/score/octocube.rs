//! `octoref score octocube FILE.json [--json]`: the basic game's final scoring.
//!
//! Input and output are the contract of `spec/cli.md`. Without `--json` the full breakdown goes to
//! stderr (per player, each category's majority and why, the tie-breaks, the winner); with
//! `--json` the [`FinalScore`] goes to stdout and a one-line summary to stderr.

use crate::cli::{CliError, CliResult, emit_json, say};
use crate::fsutil;
use crate::games::octocube::scoring::{
    FinalInput, FinalScore, PlayerScore, ScoreError, join_names, score_final,
};
use crate::games::octocube::tile::Category;
use anyhow::anyhow;
use std::fmt::Write as _;
use std::path::Path;

pub fn run(file: &Path, json: bool) -> CliResult {
    let bytes = fsutil::read_input(file).map_err(CliError::input)?;
    let score = score_bytes(&bytes, file)?;
    if json {
        emit_json(&score)?;
        say(&summary(&score));
    } else {
        say(&report(&score));
    }
    Ok(())
}

/// Parses a final-scoring input (the bytes of `file`, which names it in messages) and scores it:
/// all that `run` does but reading the file and printing. Bad input is [`CliError::Input`] naming
/// `file` and the field; it never panics, whatever the bytes (fuzzed by `fuzz/`).
pub fn score_bytes(bytes: &[u8], file: &Path) -> Result<FinalScore, CliError> {
    let input: FinalInput = fsutil::parse_json(bytes, file).map_err(CliError::input)?;
    score_final(&input).map_err(|e| match e {
        ScoreError::Input(e) => {
            CliError::input(anyhow!("{}: field `{}`: {}", file.display(), e.field, e.message))
        }
        ScoreError::Data(e) => CliError::failed(e),
    })
}

/// One line: who won with how many VP.
pub fn summary(score: &FinalScore) -> String {
    let winners: Vec<&PlayerScore> = score.players.iter().filter(|p| p.winner).collect();
    let total = winners.first().map_or(0, |p| p.total);
    match winners.as_slice() {
        [one] => format!("Octocube: {} wins with {total} VP.", one.name),
        many => format!(
            "Octocube: {} share the win with {total} VP.",
            join_names(many.iter().map(|p| p.name.as_str()))
        ),
    }
}

fn vp_list(p: &PlayerScore, background: bool) -> String {
    let parts: Vec<String> = p
        .categories
        .iter()
        .filter(|c| matches!(c.category, Category::Background(_)) == background && c.vp > 0)
        .map(|c| format!("{} {}", c.category.name().replace('_', " "), c.vp))
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// The full human breakdown.
pub fn report(score: &FinalScore) -> String {
    let mut out = String::new();
    let n = score.players.len();
    let _ = writeln!(
        out,
        "Octocube final scoring, {n} player{}",
        if n == 1 { "" } else { "s" }
    );
    let w = score
        .players
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(0)
        .max("Player".len());
    let _ = writeln!(
        out,
        "\n{:<w$}  {:>6}  {:>8}  {:>7}  {:>7}  {:>5}  {:>5}  {:>4}",
        "Player", "Tokens", "Coins VP", "Colours", "Objects", "Total", "Tiles", "Rank"
    );
    let mut by_rank: Vec<&PlayerScore> = score.players.iter().collect();
    by_rank.sort_by_key(|p| p.rank);
    for p in &by_rank {
        let _ = writeln!(
            out,
            "{:<w$}  {:>6}  {:>8}  {:>7}  {:>7}  {:>5}  {:>5}  {:>4}{}",
            p.name,
            p.vp_tokens,
            p.coins_vp,
            p.colors_vp,
            p.objects_vp,
            p.total,
            p.object_tiles,
            p.rank,
            if p.winner { "  winner" } else { "" }
        );
    }
    let _ = writeln!(out);
    for p in &score.players {
        let tokens = if p.retrieval_vp > 0 {
            format!(
                "{} VP tokens ({} from {} retrieval{})",
                p.vp_tokens,
                p.retrieval_vp,
                p.retrievals.len(),
                if p.retrievals.len() == 1 { "" } else { "s" }
            )
        } else {
            format!("{} VP tokens", p.vp_tokens)
        };
        let _ = writeln!(
            out,
            "{}: {tokens} + {} coin{} x {} = {} + colours {}{} + objects {}{} = {} VP; {} object tile{}; rank {}.",
            p.name,
            p.coins,
            if p.coins == 1 { "" } else { "s" },
            score.coin_vp,
            p.coins_vp,
            p.colors_vp,
            vp_list(p, true),
            p.objects_vp,
            vp_list(p, false),
            p.total,
            p.object_tiles,
            if p.object_tiles == 1 { "" } else { "s" },
            p.rank
        );
    }
    let _ = writeln!(out, "\nMajorities (first / second place VP):");
    for c in &score.categories {
        let _ = writeln!(out, "  [{}/{}] {}", c.first_vp, c.second_vp, c.explanation);
    }
    let _ = writeln!(out);
    let tail: Vec<&String> = score.explanation.iter().skip(score.categories.len()).collect();
    for line in tail {
        let _ = writeln!(out, "{line}");
    }
    out.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_explains_every_category_and_the_winner() {
        let input: FinalInput = serde_json::from_str(
            r#"{"players": [
                {"name": "Ana", "vp_tokens": 5, "coins": 1, "tiles": {"pearl": {"white": 2}}},
                {"name": "Ben", "vp_tokens": 5, "tiles": {"pearl": {"white": 2}, "starfish": {"green": 1}}},
                {"name": "Cy", "retrievals": [["starfish", "starfish"]], "tiles": {"pearl": {"white": 1}, "starfish": {"green": 2}}}]}"#,
        )
        .unwrap();
        let s = score_final(&input).unwrap();
        let r = report(&s);
        assert!(r.contains("pearl (column)"), "{r}");
        assert!(r.contains("Ana and Ben tie for first"), "{r}");
        assert!(
            r.contains("no second place after a tie for first, so Cy gets nothing"),
            "{r}"
        );
        assert!(
            r.contains("has no amphora tile") || r.contains("nobody has a tile"),
            "{r}"
        );
        assert!(r.contains("Winner"), "{r}");
        assert_eq!(r.lines().filter(|l| l.starts_with("  [")).count(), 9);
        assert!(summary(&s).starts_with("Octocube: "));
    }
}
