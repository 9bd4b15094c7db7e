//! Parameters whose value changes nothing at the others' values: a database window while
//! the database is up. The hiding rule ([`crate::learning::reveal`]) asks here
//! whether two runs differ in a setting, so no lab's parameter names sit in that generic
//! rule; each lab's own predicate (the fleet's in [`super::fleet_changes`]) is also what its
//! title's words use, so both agree on what a change is.

use crate::content::fleet_changes;
use crate::content::values::Values;

/// The parameters that are moot at `values`.
pub fn moot(values: &(impl Values + ?Sized)) -> Vec<&'static str> {
    let mut moot = Vec::new();
    if fleet_changes::db_window_moot(values.value(fleet_changes::DB_STATE)) {
        moot.extend(fleet_changes::DB_WINDOW);
    }
    moot
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_up_databases_window_is_moot_and_a_down_ones_is_not() {
        let at = |state: f64| moot(&[("fleet_db_state", state), ("fleet_db_start_s", 30.0)][..]);
        assert_eq!(at(0.0), fleet_changes::DB_WINDOW);
        assert!(at(2.0).is_empty());
        assert!(
            moot(&[("p", 0.3)][..]).is_empty(),
            "a lab without a database has nothing moot"
        );
    }
}
