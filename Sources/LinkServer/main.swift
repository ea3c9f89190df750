import Foundation

exit(Launcher.run(arguments: Array(CommandLine.arguments.dropFirst())))
