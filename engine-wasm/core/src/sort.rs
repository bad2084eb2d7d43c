//! PostgreSQL's in-memory quicksort (src/port/qsort.c, lib/sort_template.h:
//! Bentley and McIlroy's, with a presorted check). It is not stable: items
//! that compare equal end up in the order this algorithm leaves them, not
//! their input order. Reproducing it is what makes the B-tree's split choice
//! (nbtsplitloc.c sorts candidate split points by delta) and CLUSTER's
//! tuplesort put ties where PostgreSQL puts them.

use std::cmp::Ordering;

/// Sorts `v` in place exactly as `ST_SORT` does, with `cmp` as `DO_COMPARE`.
pub fn pg_qsort<T>(v: &mut [T], cmp: &mut dyn FnMut(&T, &T) -> Ordering) {
    let mut a = 0usize;
    let mut n = v.len();
    loop {
        if n < 7 {
            insertion_sort(&mut v[a..a + n], cmp);
            return;
        }
        if (a + 1..a + n).all(|i| cmp(&v[i - 1], &v[i]) != Ordering::Greater) {
            return; // presorted
        }
        let pm = pivot(&v[a..a + n], cmp) + a;
        v.swap(a, pm);
        let (mut pa, mut pb) = (a + 1, a + 1);
        let (mut pc, mut pd) = (a + n - 1, a + n - 1);
        loop {
            while pb <= pc {
                let r = cmp(&v[pb], &v[a]);
                if r == Ordering::Greater {
                    break;
                }
                if r == Ordering::Equal {
                    v.swap(pa, pb);
                    pa += 1;
                }
                pb += 1;
            }
            while pb <= pc {
                let r = cmp(&v[pc], &v[a]);
                if r == Ordering::Less {
                    break;
                }
                if r == Ordering::Equal {
                    v.swap(pc, pd);
                    pd -= 1;
                }
                pc -= 1;
            }
            if pb > pc {
                break;
            }
            v.swap(pb, pc);
            pb += 1;
            pc -= 1;
        }
        let pn = a + n;
        let d1 = (pa - a).min(pb - pa);
        swap_n(v, a, pb - d1, d1);
        let d1 = (pd - pc).min(pn - pd - 1);
        swap_n(v, pb, pn - d1, d1);
        let (d1, d2) = (pb - pa, pd - pc);
        // Recurse on the smaller side, iterate on the other (as `goto loop`).
        if d1 <= d2 {
            if d1 > 1 {
                pg_qsort(&mut v[a..a + d1], cmp);
            }
            if d2 <= 1 {
                return;
            }
            a = pn - d2;
            n = d2;
        } else {
            if d2 > 1 {
                pg_qsort(&mut v[pn - d2..pn], cmp);
            }
            if d1 <= 1 {
                return;
            }
            n = d1;
        }
    }
}

fn insertion_sort<T>(v: &mut [T], cmp: &mut dyn FnMut(&T, &T) -> Ordering) {
    for m in 1..v.len() {
        let mut l = m;
        while l > 0 && cmp(&v[l - 1], &v[l]) == Ordering::Greater {
            v.swap(l, l - 1);
            l -= 1;
        }
    }
}

/// The pivot's position: the middle element, or the median of three
/// (ninther above 40 elements) from the ends and the middle.
fn pivot<T>(v: &[T], cmp: &mut dyn FnMut(&T, &T) -> Ordering) -> usize {
    let n = v.len();
    let mut pm = n / 2;
    if n > 7 {
        let mut pl = 0;
        let mut pn = n - 1;
        if n > 40 {
            let d = n / 8;
            pl = med3(v, pl, pl + d, pl + 2 * d, cmp);
            pm = med3(v, pm - d, pm, pm + d, cmp);
            pn = med3(v, pn - 2 * d, pn - d, pn, cmp);
        }
        pm = med3(v, pl, pm, pn, cmp);
    }
    pm
}

fn med3<T>(
    v: &[T],
    a: usize,
    b: usize,
    c: usize,
    cmp: &mut dyn FnMut(&T, &T) -> Ordering,
) -> usize {
    let less = |x: Ordering| x == Ordering::Less;
    let greater = |x: Ordering| x == Ordering::Greater;
    if less(cmp(&v[a], &v[b])) {
        if less(cmp(&v[b], &v[c])) {
            b
        } else if less(cmp(&v[a], &v[c])) {
            c
        } else {
            a
        }
    } else if greater(cmp(&v[b], &v[c])) {
        b
    } else if less(cmp(&v[a], &v[c])) {
        a
    } else {
        c
    }
}

/// `DO_SWAPN`: swaps the `n` elements from `a` with the `n` from `b`.
fn swap_n<T>(v: &mut [T], a: usize, b: usize, n: usize) {
    for i in 0..n {
        v.swap(a + i, b + i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_any_sort_and_leaves_ties_as_postgres_does() {
        let mut v: Vec<(u32, u32)> = (0..500).map(|i| ((i * 7919) % 13, i)).collect();
        pg_qsort(&mut v, &mut |a, b| a.0.cmp(&b.0));
        assert!(v.windows(2).all(|w| w[0].0 <= w[1].0));
        let mut ids: Vec<u32> = v.iter().map(|p| p.1).collect();
        ids.sort();
        assert_eq!(ids, (0..500).collect::<Vec<_>>());
        // Ties are not kept in input order (a stable sort would).
        assert!(v.windows(2).any(|w| w[0].0 == w[1].0 && w[0].1 > w[1].1));
        // Presorted input is left as it is; small inputs sort stably.
        let mut w = vec![(1, 0), (1, 1), (2, 2)];
        pg_qsort(&mut w, &mut |a: &(i32, i32), b| a.0.cmp(&b.0));
        assert_eq!(w, vec![(1, 0), (1, 1), (2, 2)]);
    }
}
