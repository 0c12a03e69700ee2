#if !canImport(StoreKit) && !canImport(UIKit)
import Foundation

/// https://developer.apple.com/documentation/uikit/uiscene
/// UIKit's `@MainActor class UIScene`, declared so StoreKit's scene-taking functions can be mirrored
/// with their exact types; on Linux nothing presents UI, so a scene is only something to pass.
@MainActor
open class UIScene {
    public init() {}
}

/// https://developer.apple.com/documentation/uikit/uiwindowscene
/// UIKit's `@MainActor class UIWindowScene: UIScene`.
@MainActor
open class UIWindowScene: UIScene {}
#endif
