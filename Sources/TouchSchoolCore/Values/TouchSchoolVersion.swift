/// The release: what `touchschool --version` prints (and `touchschool-network --version`, the
/// same commands) and the About screen shows. Raised with each release, here only.
public enum TouchSchoolVersion {
    public static let release = "0.20.0"
}
