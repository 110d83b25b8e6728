// How a cell value is shown and read out, in each variant.
//
// Z10 shows the number itself. Phi-Lambda hides the number: a 5 is shown as
// Lambda and every other number as Phi. Empty cells (0) show nothing.

export const VARIANT_NAMES = {
  z10: "Numbers (Z10)",
  phi_lambda: "Φ and Λ",
};

export const VARIANT_SHORT_NAMES = {
  z10: "Z10",
  phi_lambda: "Φ Λ",
};

export function symbolFor(value, variant) {
  if (!value) return "";
  if (variant === "phi_lambda") return value === 5 ? "Λ" : "Φ";
  return String(value);
}

export function spokenFor(value, variant) {
  if (!value) return "empty";
  if (variant === "phi_lambda") return value === 5 ? "Lambda" : "Phi";
  return String(value);
}

// A hue for a group id, spread by the golden angle so that groups with
// neighbouring ids get clearly different colours.
export function groupHue(label) {
  return Math.round((label * 137.508 + 200) % 360);
}
