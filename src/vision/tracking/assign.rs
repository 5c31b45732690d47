//! Gated optimal assignment of tracks to detections (the Hungarian method).
//!
//! Rows are tracks, columns detections; a cell holds the cost of pairing them (mm) or `None`
//! where the gate forbids the pair. The result pairs as many rows as the gate allows and, among
//! those pairings, has the smallest total cost. It does not depend on the order of the columns
//! (up to exact ties), which is what keeps identities stable when vision lists the pieces of a
//! frame in another order.

/// Cost of a forbidden pair relative to the largest allowed one; see [`assign`].
const FORBIDDEN_MARGIN: f64 = 1.0;

/// For each row, the column paired with it (`None` when the gate left it unpaired). Every row of
/// `costs` must have `columns` cells; costs must be finite and non-negative.
pub fn assign(costs: &[Vec<Option<f64>>], columns: usize) -> Vec<Option<usize>> {
    let rows = costs.len();
    if rows == 0 || columns == 0 {
        return vec![None; rows];
    }
    let cell = |r: usize, c: usize| costs.get(r).and_then(|row| row.get(c).copied().flatten());
    // A forbidden pair costs more than every allowed pairing together, so the optimum first
    // uses as few forbidden pairs as possible, then the cheapest allowed ones; forbidden pairs
    // are dropped afterwards.
    let largest = (0..rows)
        .flat_map(|r| (0..columns).filter_map(move |c| cell(r, c)))
        .fold(0.0, f64::max);
    let forbidden = (largest + FORBIDDEN_MARGIN) * (rows.min(columns) + 1) as f64;
    let transpose = rows > columns;
    let (n, m) = if transpose {
        (columns, rows)
    } else {
        (rows, columns)
    };
    let matrix: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..m)
                .map(|j| {
                    let (r, c) = if transpose { (j, i) } else { (i, j) };
                    cell(r, c).unwrap_or(forbidden)
                })
                .collect()
        })
        .collect();
    let row_to_col = hungarian(&matrix, m);
    let mut out = vec![None; rows];
    for (i, j) in row_to_col.into_iter().enumerate() {
        let Some(j) = j else { continue };
        let (r, c) = if transpose { (j, i) } else { (i, j) };
        if cell(r, c).is_some()
            && let Some(slot) = out.get_mut(r)
        {
            *slot = Some(c);
        }
    }
    out
}

/// Minimum-cost assignment of every row of an `n x m` matrix (`n <= m`) to a distinct column,
/// by shortest augmenting paths with potentials (O(n^2 m)).
fn hungarian(a: &[Vec<f64>], m: usize) -> Vec<Option<usize>> {
    let n = a.len();
    // 1-based, column 0 is the virtual start of each augmenting path.
    let mut u = vec![0.0; n + 1];
    let mut v = vec![0.0; m + 1];
    let mut p = vec![0usize; m + 1];
    let mut way = vec![0usize; m + 1];
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0;
        let mut minv = vec![f64::INFINITY; m + 1];
        let mut used = vec![false; m + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = f64::INFINITY;
            let mut j1 = 0;
            for j in 1..=m {
                if used[j] {
                    continue;
                }
                let cur = a[i0 - 1][j - 1] - u[i0] - v[j];
                if cur < minv[j] {
                    minv[j] = cur;
                    way[j] = j0;
                }
                if minv[j] < delta {
                    delta = minv[j];
                    j1 = j;
                }
            }
            if j1 == 0 {
                // Only reachable with non-finite costs, which callers never pass.
                break;
            }
            for j in 0..=m {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let mut row_to_col = vec![None; n];
    for j in 1..=m {
        if p[j] != 0 {
            row_to_col[p[j] - 1] = Some(j - 1);
        }
    }
    row_to_col
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// (pairs, total cost) of the best assignment by trying every one.
    fn brute_force(costs: &[Vec<Option<f64>>], columns: usize) -> (usize, f64) {
        fn go(
            costs: &[Vec<Option<f64>>],
            row: usize,
            used: &mut Vec<bool>,
            pairs: usize,
            total: f64,
            best: &mut (usize, f64),
        ) {
            if row == costs.len() {
                if pairs > best.0 || (pairs == best.0 && total < best.1) {
                    *best = (pairs, total);
                }
                return;
            }
            go(costs, row + 1, used, pairs, total, best);
            for c in 0..used.len() {
                if let Some(x) = costs[row][c]
                    && !used[c]
                {
                    used[c] = true;
                    go(costs, row + 1, used, pairs + 1, total + x, best);
                    used[c] = false;
                }
            }
        }
        let mut best = (0, f64::INFINITY);
        go(costs, 0, &mut vec![false; columns], 0, 0.0, &mut best);
        if best.0 == 0 {
            best.1 = 0.0;
        }
        best
    }

    fn score(costs: &[Vec<Option<f64>>], pairs: &[Option<usize>]) -> (usize, f64) {
        let mut seen = std::collections::HashSet::new();
        let mut total = 0.0;
        let mut n = 0;
        for (r, c) in pairs.iter().enumerate() {
            if let Some(c) = *c {
                assert!(seen.insert(c), "column {c} used twice");
                total += costs[r][c].expect("a forbidden pair was returned");
                n += 1;
            }
        }
        (n, total)
    }

    #[test]
    fn pairs_the_nearest_and_leaves_gated_rows_alone() {
        let costs = vec![
            vec![Some(1.0), Some(20.0), None],
            vec![Some(19.0), Some(2.0), None],
            vec![None, None, None],
        ];
        assert_eq!(assign(&costs, 3), vec![Some(0), Some(1), None]);
        assert_eq!(assign(&[], 4), Vec::<Option<usize>>::new());
        assert_eq!(assign(&[vec![], vec![]], 0), vec![None, None]);
    }

    #[test]
    fn more_rows_than_columns() {
        let costs = vec![vec![Some(5.0)], vec![Some(1.0)], vec![Some(3.0)]];
        assert_eq!(assign(&costs, 1), vec![None, Some(0), None]);
    }

    proptest! {
        #[test]
        fn matches_brute_force(
            rows in 0usize..5,
            columns in 0usize..5,
            cells in prop::collection::vec(prop::option::weighted(0.7, 0.0f64..50.0), 25),
        ) {
            let costs: Vec<Vec<Option<f64>>> = (0..rows)
                .map(|r| (0..columns).map(|c| cells[r * 5 + c]).collect())
                .collect();
            let got = score(&costs, &assign(&costs, columns));
            let want = brute_force(&costs, columns);
            prop_assert_eq!(got.0, want.0);
            prop_assert!((got.1 - want.1).abs() < 1e-6, "{:?} vs {:?}", got, want);
        }
    }
}
