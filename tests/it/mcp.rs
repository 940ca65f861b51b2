//! The MCP server's tools as a client lists them: each annotated (issue 38) with a title and
//! MCP's `ToolAnnotations` hints, read-only, idempotent and closed-world, since no tool changes a
//! repository or reaches past this machine.

use std::ffi::OsStr;

use crate::common::{Mcp, TestEnv};

#[test]
fn every_tool_is_annotated_read_only_idempotent_and_closed_world() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    repo.write("a.py", "x = 1\n").commit("init");
    let mut mcp = Mcp::start(
        &env,
        &repo.dir,
        &[OsStr::new("--allow"), repo.dir.as_os_str()],
    );
    let listed = mcp.request("tools/list", serde_json::json!({}));
    let tools = listed["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 5, "{listed}");
    let mut titles = Vec::new();
    for tool in tools {
        let name = tool["name"].as_str().unwrap();
        let annotations = &tool["annotations"];
        let title = tool["title"]
            .as_str()
            .unwrap_or_else(|| panic!("{name}: no title"));
        assert_eq!(annotations["title"], title, "{name}");
        assert_eq!(annotations["readOnlyHint"], true, "{name}");
        assert_eq!(annotations["idempotentHint"], true, "{name}");
        assert_eq!(annotations["openWorldHint"], false, "{name}");
        // Meaningful only for a tool that writes: left out.
        assert!(annotations.get("destructiveHint").is_none(), "{name}");
        titles.push(title.to_owned());
    }
    titles.sort();
    titles.dedup();
    assert_eq!(titles.len(), 5, "each tool has its own title: {titles:?}");
}
