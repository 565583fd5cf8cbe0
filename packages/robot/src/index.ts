// The trading engine. Filled by the robot issue; see ARCHITECTURE.md, "A trade, end to end".
export {};
