use proptest::prelude::*;

use super::def::{KB, MB, MS};
use super::*;

fn show_after(name: &str, text: &str) -> String {
    let mut s = Settings::new();
    s.set(name, text)
        .unwrap_or_else(|e| panic!("{name}={text}: {e}"));
    s.show(name).unwrap()
}

fn set_error(name: &str, text: &str) -> SettingError {
    Settings::new().set(name, text).expect_err("an error")
}

#[test]
fn defaults_show_as_postgres_shows_them() {
    let s = Settings::new();
    let expect = [
        ("shared_buffers", "128MB"),
        ("page_size", "8kB"),
        ("leaf_fillfactor", "90"),
        ("internal_fillfactor", "70"),
        ("heap_fillfactor", "100"),
        ("buffer_replacement", "clock_sweep"),
        ("write_buffer_size", "128MB"),
        ("block_size", "32kB"),
        ("index_block_size", "64kB"),
        ("filter_block_size", "64kB"),
        ("block_cache_size", "512MB"),
        ("bloom_bits_per_key", "10"),
        ("compaction_style", "universal"),
        ("level0_file_num_compaction_trigger", "5"),
        ("max_bytes_for_level_base", "256MB"),
        ("max_bytes_for_level_multiplier", "10"),
        ("target_file_size_base", "64MB"),
        ("yb_enable_packed_row", "on"),
        ("yb_fetch_row_limit", "1024"),
        ("yb_fetch_size_limit", "0"),
        ("ysql_request_limit", "1024"),
        ("ysql_prefetch_limit", "1024"),
        ("yb_bnl_batch_size", "1"),
        ("yb_enable_expression_pushdown", "on"),
        ("network", "local"),
        ("tablet_servers", "3"),
        ("replication_factor", "1"),
        ("max_rows", "10000000"),
        ("cost_device_read", "100us"),
        ("cost_cpu_row", "200ns"),
    ];
    for (name, shown) in expect {
        assert_eq!(s.show(name).unwrap(), shown, "{name}");
    }
}

#[test]
fn sizes_parse_with_units_and_bare_numbers_in_the_base_unit() {
    assert_eq!(show_after("shared_buffers", "16384"), "128MB");
    assert_eq!(show_after("shared_buffers", "1GB"), "1GB");
    assert_eq!(show_after("shared_buffers", "'8 MB'"), "8MB");
    assert_eq!(show_after("shared_buffers", "0.5MB"), "512kB");
    assert_eq!(show_after("block_size", "32KB"), "32kB");
    assert_eq!(show_after("block_size", "8kb"), "8kB");
    assert_eq!(show_after("block_size", "4096"), "4kB");
    assert_eq!(show_after("write_buffer_size", "1536kB"), "1536kB");
    assert_eq!(show_after("yb_fetch_size_limit", "1MiB"), "1MB");
    let mut s = Settings::new();
    s.set("shared_buffers", "16").unwrap();
    assert_eq!(s.get_bytes("shared_buffers").unwrap(), 16 * 8 * KB);
}

#[test]
fn round_trip_set_then_show_for_each_type() {
    let cases = [
        ("yb_fetch_row_limit", "50000", "50000"),
        ("seed", "9223372036854775807", "9223372036854775807"),
        ("leaf_fillfactor", "'75'", "75"),
        ("max_bytes_for_level_multiplier", "2.5", "2.5"),
        ("yb_enable_packed_row", "off", "off"),
        ("yb_enable_packed_row", "TRUE", "on"),
        ("compaction_style", "Leveled", "leveled"),
        ("buffer_replacement", "'lru'", "lru"),
        ("network", "multi-az", "multi-az"),
        ("network", "'Multi-Region'", "multi-region"),
        ("network", "0.8", "800us"),
        ("network", "5ms", "5ms"),
        ("network", "0", "0"),
        ("cost_cpu_row", "0.5", "500ns"),
        ("cost_device_read", "1 ms", "1ms"),
        ("yb_bnl_batch_size", "'1024'", "1024"),
        ("yb_bnl_batch_size", "1e3", "1000"),
        ("leaf_fillfactor", "74.5", "74"),
    ];
    for (name, text, shown) in cases {
        assert_eq!(show_after(name, text), shown, "{name} = {text}");
        // What SHOW prints is accepted back and gives the same value.
        assert_eq!(show_after(name, shown), shown, "{name} = {shown}");
    }
}

#[test]
fn typed_getters() {
    let mut s = Settings::new();
    s.set("network", "multi-region").unwrap();
    assert_eq!(s.get_nanos("network").unwrap(), 90 * MS);
    assert_eq!(
        s.get_duration("network").unwrap(),
        std::time::Duration::from_millis(90)
    );
    assert_eq!(s.get_int("yb_fetch_row_limit").unwrap(), 1024);
    assert_eq!(s.get_bytes("shared_buffers").unwrap(), 128 * MB);
    assert_eq!(s.get_float("max_bytes_for_level_multiplier").unwrap(), 10.0);
    assert_eq!(s.get_float("yb_bnl_batch_size").unwrap(), 1.0);
    assert!(s.get_bool("yb_enable_packed_row").unwrap());
    assert_eq!(s.get_enum("compaction_style").unwrap(), "universal");
    assert_eq!(s.get_nanos("cost_cache_hit").unwrap(), 200);
    let e = s.get_int("shared_buffers").unwrap_err();
    assert_eq!(
        e.to_string(),
        "setting \"shared_buffers\" is of type bytes, not integer"
    );
}

#[test]
fn every_setting_has_a_working_getter() {
    let s = Settings::new();
    for def in REGISTRY {
        let ok = match def.kind {
            Kind::Int { .. } => s.get_int(def.name).is_ok(),
            Kind::Bytes { .. } => s.get_bytes(def.name).is_ok(),
            Kind::Float { .. } => s.get_float(def.name).is_ok(),
            Kind::Bool { .. } => s.get_bool(def.name).is_ok(),
            Kind::Enum { .. } => s.get_enum(def.name).is_ok(),
            Kind::Duration { .. } => s.get_nanos(def.name).is_ok(),
        };
        assert!(ok, "{}", def.name);
    }
}

#[test]
fn range_errors_name_the_setting_and_the_range() {
    let e = set_error("shared_buffers", "64kB");
    assert_eq!(
        e.to_string(),
        "64kB is outside the valid range for parameter \"shared_buffers\" (128kB .. 8GB)"
    );
    assert!(e.hint().unwrap().contains("16 pages"));
    // 100kB rounds to 12 pages, below the minimum.
    assert!(matches!(
        set_error("shared_buffers", "100kB"),
        SettingError::OutOfRange { .. }
    ));
    assert!(matches!(
        set_error("shared_buffers", "-1"),
        SettingError::OutOfRange { .. }
    ));
    assert!(matches!(
        set_error("shared_buffers", "1e30GB"),
        SettingError::OutOfRange { .. }
    ));
    let e = set_error("max_rows", "10000001");
    assert_eq!(
        e.to_string(),
        "10000001 is outside the valid range for parameter \"max_rows\" (1 .. 10000000)"
    );
    assert!(e.hint().unwrap().contains("10,000,000"));
    for bad in ["0", "10001"] {
        assert!(matches!(
            set_error("yb_bnl_batch_size", bad),
            SettingError::OutOfRange { .. }
        ));
    }
    let e = set_error("network", "20s");
    assert_eq!(
        e.to_string(),
        "20s is outside the valid range for parameter \"network\" (0 .. 10s)"
    );
    assert!(matches!(
        set_error("max_bytes_for_level_multiplier", "1"),
        SettingError::OutOfRange { .. }
    ));
}

#[test]
fn invalid_values_say_what_is_accepted() {
    let e = set_error("shared_buffers", "lots");
    assert_eq!(
        e.to_string(),
        "invalid value for parameter \"shared_buffers\": \"lots\""
    );
    assert!(e.hint().unwrap().contains("\"kB\", \"MB\""));
    assert!(set_error("shared_buffers", "12 parsecs").hint().is_some());
    let e = set_error("compaction_style", "tiered");
    assert_eq!(e.hint().unwrap(), "Available values: universal, leveled.");
    assert!(set_error("yb_enable_packed_row", "maybe")
        .hint()
        .unwrap()
        .contains("on, off"));
    assert!(set_error("network", "mars")
        .hint()
        .unwrap()
        .contains("multi-az"));
    assert!(matches!(
        set_error("yb_fetch_row_limit", "10kB"),
        SettingError::Invalid { .. }
    ));
    assert!(matches!(
        set_error("max_bytes_for_level_multiplier", "x"),
        SettingError::Invalid { .. }
    ));
    assert!(matches!(
        set_error("cost_cpu_row", "5 fortnights"),
        SettingError::Invalid { .. }
    ));
}

#[test]
fn rules_beyond_ranges() {
    let e = set_error("page_size", "12kB");
    assert!(e.to_string().contains("power of two"), "{e}");
    assert_eq!(show_after("page_size", "16kB"), "16kB");
    assert!(set_error("replication_factor", "2")
        .to_string()
        .contains("odd"));
    let mut s = Settings::new();
    s.set("replication_factor", "3").unwrap();
    assert!(s.check_consistency().is_ok());
    s.set("tablet_servers", "1").unwrap();
    let e = s.check_consistency().unwrap_err();
    assert!(e.to_string().contains("cannot exceed tablet_servers"));
}

#[test]
fn unknown_settings_use_postgres_wording() {
    let e = set_error("shared_bufers", "1");
    assert_eq!(
        e.to_string(),
        "unrecognized configuration parameter \"shared_bufers\""
    );
    assert!(Settings::new().show("nope").is_err());
    assert!(Settings::new().reset("nope").is_err());
}

#[test]
fn names_are_case_insensitive_and_scope_is_returned() {
    let mut s = Settings::new();
    let def = s.set("YB_FETCH_ROW_LIMIT", "5").unwrap();
    assert_eq!(def.scope, Scope::Yb);
    assert!(!def.scope.covers_pg());
    assert_eq!(s.show("yb_fetch_row_limit").unwrap(), "5");
    assert!(s.set("page_size", "8kB").unwrap().scope.covers_pg());
}

#[test]
fn default_reset_and_reset_all() {
    let mut s = Settings::new();
    s.set("yb_bnl_batch_size", "5").unwrap();
    s.set("shared_buffers", "16MB").unwrap();
    assert_eq!(
        s.changed(),
        [
            ("shared_buffers", "16MB".to_string()),
            ("yb_bnl_batch_size", "5".to_string())
        ]
    );
    s.set("yb_bnl_batch_size", "DEFAULT").unwrap();
    assert_eq!(s.show("yb_bnl_batch_size").unwrap(), "1");
    s.reset("shared_buffers").unwrap();
    assert!(s.changed().is_empty());
    s.set("network", "multi-az").unwrap();
    s.reset_all();
    assert_eq!(s, Settings::new());
}

#[test]
fn reset_returns_to_the_session_values_not_the_defaults() {
    // A run started with --set shared_buffers=16MB: that is its configuration.
    let mut s = Settings::new();
    s.set("shared_buffers", "16MB").unwrap();
    s.start_session();
    s.set("shared_buffers", "1MB").unwrap();
    s.set("yb_fetch_row_limit", "7").unwrap();
    s.reset("shared_buffers").unwrap();
    assert_eq!(s.show("shared_buffers").unwrap(), "16MB");
    s.set("shared_buffers", "DEFAULT").unwrap();
    assert_eq!(s.show("shared_buffers").unwrap(), "16MB");
    s.reset_all();
    assert_eq!(s.show("yb_fetch_row_limit").unwrap(), "1024");
    assert_eq!(s.changed(), [("shared_buffers", "16MB".to_string())]);
}

#[test]
fn cli_assignments() {
    let mut s = Settings::new();
    s.apply_assignment("yb_fetch_row_limit=50000").unwrap();
    assert_eq!(s.get_int("yb_fetch_row_limit").unwrap(), 50000);
    assert!(s.apply_assignment("nothing").is_err());
}

#[test]
fn list_for_the_ui() {
    let mut s = Settings::new();
    s.set("shared_buffers", "1GB").unwrap();
    let list = s.list();
    assert_eq!(list.len(), REGISTRY.len());
    let sb = list.iter().find(|i| i.name == "shared_buffers").unwrap();
    assert_eq!(
        (sb.value.as_str(), sb.default.as_str(), sb.unit.as_str()),
        ("1GB", "128MB", "8kB")
    );
    assert_eq!(
        (sb.min.as_str(), sb.max.as_str(), sb.type_name),
        ("128kB", "8GB", "bytes")
    );
    let net = list.iter().find(|i| i.name == "network").unwrap();
    assert_eq!((net.unit.as_str(), net.values.len()), ("ms", 3));
    let wb = list.iter().find(|i| i.name == "write_buffer_size").unwrap();
    assert_eq!(wb.unit, "B");
    let cs = list.iter().find(|i| i.name == "compaction_style").unwrap();
    assert_eq!(cs.values, ["universal", "leveled"]);
    assert!(list.iter().all(|i| !i.description.is_empty()));
}

#[test]
fn setting_errors_convert_with_their_hint() {
    let e: crate::sql::SqlError = set_error("shared_buffers", "1kB").into();
    assert_eq!(e.kind, crate::sql::ErrorKind::Setting);
    assert!(e.hint.as_deref().unwrap().contains("16 pages"));
}

proptest! {
    #[test]
    fn any_text_for_any_setting_never_panics(index in 0..REGISTRY.len(), text in any::<String>()) {
        let mut s = Settings::new();
        let _ = s.set(REGISTRY[index].name, &text);
    }

    #[test]
    fn what_show_prints_parses_back(index in 0..REGISTRY.len(), text in "[0-9]{1,7}(\\.[0-9]{1,2})?( ?(kB|MB|ms|us))?") {
        let mut s = Settings::new();
        let name = REGISTRY[index].name;
        if s.set(name, &text).is_ok() {
            let shown = s.show(name).unwrap();
            let before = s.value(name).unwrap();
            s.set(name, &shown).unwrap();
            prop_assert_eq!(s.value(name).unwrap(), before);
        }
    }
}
