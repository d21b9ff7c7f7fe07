public enum ViewPlaceholder {}
