/// What `touchschool --version` prints (and `touchschool-network --version`, the same commands).
/// Raised with each release.
public enum TouchSchoolVersion {
    public static let release = "0.20.0"
}
