// Not a defineTool export: reported as a registry problem, never offered.
export default { description: "" };
