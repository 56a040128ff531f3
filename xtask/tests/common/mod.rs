//! What the workspace-wide source checks share: where the workspace is and
//! which `src` folders its crates have.

use std::path::{Path, PathBuf};

/// The workspace's root folder.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}

/// The `src` folder of every member crate that has one.
pub fn crate_sources() -> Vec<(String, PathBuf)> {
    let root = workspace_root();
    let mut sources = vec![("xtask".to_owned(), root.join("xtask/src"))];
    for parent in ["crates", "tests"] {
        let mut members: Vec<PathBuf> = std::fs::read_dir(root.join(parent))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.join("Cargo.toml").is_file() && path.join("src").is_dir())
            .collect();
        members.sort();
        for member in members {
            let name = format!("{parent}/{}", member.file_name().unwrap().to_string_lossy());
            sources.push((name, member.join("src")));
        }
    }
    sources
}
