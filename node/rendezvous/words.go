package rendezvous

// codeWords is the word list of invite codes: 256 short English words,
// each told apart by its first three letters, so that a code read aloud
// is easy to type and three letters of each word are enough.
var codeWords = [256]string{
	"acorn", "actor", "adult", "agent", "alarm", "album", "alley", "amber", "anchor", "angle",
	"ankle", "apple", "apron", "arena", "armor", "arrow", "atlas", "attic", "bacon", "badge",
	"bagel", "baker", "banjo", "basket", "beach", "bell", "berry", "boat", "bonus", "book",
	"bread", "brick", "broom", "bugle", "cabin", "camel", "canal", "castle", "cedar", "cello",
	"chair", "cider", "clock", "coast", "cobra", "comet", "coral", "crown", "cycle", "daisy",
	"delta", "denim", "dragon", "drum", "dune", "eagle", "earth", "easel", "elbow", "essay",
	"fence", "fern", "field", "film", "finch", "fire", "fish", "flag", "flute", "foam",
	"frog", "fudge", "garden", "gate", "gecko", "ghost", "giant", "glove", "goat", "gold",
	"grape", "guitar", "gull", "habit", "hammer", "hazel", "hedge", "hero", "hill", "hinge",
	"hippo", "hobby", "honey", "hook", "horse", "hotel", "house", "human", "icon", "idea",
	"igloo", "image", "index", "iron", "island", "ivory", "jazz", "jeans", "jelly", "jewel",
	"joke", "juice", "jumbo", "jungle", "kayak", "kettle", "king", "kiwi", "knee", "knot",
	"koala", "lake", "lamp", "lark", "laser", "lava", "lawn", "lemon", "lily", "lime",
	"linen", "lion", "llama", "lotus", "lunar", "maize", "mango", "maple", "mask", "medal",
	"melon", "model", "monkey", "moon", "nest", "novel", "nurse", "oasis", "ocean", "olive",
	"onion", "opal", "opera", "orange", "orbit", "organ", "otter", "oven", "panda", "paper",
	"parrot", "pasta", "pearl", "piano", "pine", "pizza", "plum", "poem", "polar", "pony",
	"quail", "queen", "quote", "radio", "rain", "raven", "razor", "reef", "rhino", "rice",
	"ring", "river", "robin", "rocket", "roof", "rose", "ruby", "ruler", "rumba", "salad",
	"sand", "satin", "sauce", "scarf", "scout", "seal", "sheep", "ship", "silver", "skate",
	"smile", "snail", "snow", "soap", "socks", "sofa", "solar", "spoon", "squid", "stone",
	"sugar", "swan", "sword", "table", "tail", "tango", "taxi", "teddy", "tiger", "toast",
	"token", "tooth", "torch", "tower", "tulip", "turtle", "twig", "uncle", "vapor", "venus",
	"verse", "video", "villa", "vine", "vocal", "wafer", "wagon", "wand", "wasp", "water",
	"wave", "whale", "wheat", "window", "wolf", "wood", "worm", "yacht", "yard", "yeti",
	"yodel", "yolk", "yoyo", "zebra", "zipper", "zone",
}
