/** The MCP server's identity: its initialize answer and its server card (kept apart from the server, which the card's route does not need). */
export const MCP_SERVER_INFO = { name: "schoolhouse", title: "Schoolhouse", version: "1.0.0" };
